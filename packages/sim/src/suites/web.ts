import type { City, Company, CorpusWorld, Product } from "../corpus.js";
import { formatCount } from "../corpus-page.js";
import { hashParts } from "../hash.js";
import type { Pitfall } from "../pitfalls/pitfall.js";
import { outdatedSource, snippetVersusOfficial, unitConversion } from "../pitfalls/web-pitfalls.js";
import type { SuiteSplit } from "./math.js";
import { suiteSplits } from "./math.js";

/** A page holding a value, as it is written there (page unit, thousands separators). */
export interface WebSource {
  url: string;
  value: string;
  date?: string;
}

export interface UnitChange {
  page: string;
  asked: string;
  factor: number;
}

/** A web task the sim understands: where the right value is and which wrong sources tempt the policy. */
export interface WebInstance {
  domain: "web";
  family: WebFamily;
  question: string;
  answer: string;
  activePitfalls: Pitfall[];
  /** What the policy types into web_search. */
  query: string;
  /** One noun phrase for the policy's sentences ("the founding year of Zorblax Labs"). */
  subject: string;
  /** The page with the right value (official page, or the newest dated source). */
  primary: WebSource;
  /** An aggregator or listing whose snippet gives a wrong value. */
  snippet?: WebSource;
  /** An older dated source with an outdated value. */
  outdated?: WebSource;
  unit?: UnitChange;
}

type Entity = Company | City | Product;

export interface WebFamily {
  id: string;
  pitfalls: readonly Pitfall[];
  entities(world: CorpusWorld): Entity[];
  questions(entity: Entity): [string, string];
  build(entity: Entity, question: string): Omit<WebInstance, "family" | "question" | "activePitfalls">;
}

/** "48.37" * 100 -> "4837"; exact decimal arithmetic, so conversions never pick up float noise. */
export function scaleDecimal(value: string, factor: number): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.replace(/,/g, ""));
  if (!m) return value;
  const fraction = m[3] ?? "";
  const scaled = BigInt(`${m[2]}${fraction}`) * BigInt(factor);
  const divisor = 10n ** BigInt(fraction.length);
  const whole = scaled / divisor;
  const rest = scaled % divisor;
  const text =
    rest === 0n
      ? `${whole}`
      : `${whole}.${rest.toString().padStart(fraction.length, "0").replace(/0+$/, "")}`;
  return `${m[1]}${text}`;
}

function plain(count: number): string {
  return String(count);
}

const companyFounded: WebFamily = {
  id: "company-founded",
  pitfalls: [snippetVersusOfficial],
  entities: (world) => world.companies,
  questions: (e) => [`In which year was ${e.name} founded?`, `What year was the company ${e.name} founded?`],
  build(entity) {
    const c = entity as Company;
    return {
      domain: "web",
      answer: String(c.founded),
      query: `${c.name} founded year`,
      subject: `the founding year of ${c.name}`,
      primary: { url: `http://${c.host}/about`, value: String(c.founded) },
      snippet: { url: `http://www.companyfacts.example/company/${c.slug}`, value: String(c.listedFounded) },
    };
  },
};

const companyEmployees: WebFamily = {
  id: "company-employees",
  pitfalls: [outdatedSource],
  entities: (world) => world.companies,
  questions: (e) => [
    `How many people does ${e.name} employ?`,
    `What is the current number of employees at ${e.name}?`,
  ],
  build(entity) {
    const c = entity as Company;
    const oldUrl = `/${c.employeesOld.year}/${c.slug}-workforce`;
    return {
      domain: "web",
      answer: plain(c.employeesNew.count),
      query: `${c.name} employees workforce`,
      subject: `the number of employees of ${c.name}`,
      primary: {
        url: `http://${c.host}/annual-report-${c.employeesNew.year}`,
        value: formatCount(c.employeesNew.count),
        date: String(c.employeesNew.year + 1),
      },
      outdated: { url: oldUrl, value: formatCount(c.employeesOld.count), date: String(c.employeesOld.year) },
    };
  },
};

const companyCeo: WebFamily = {
  id: "company-ceo",
  pitfalls: [outdatedSource],
  entities: (world) => world.companies,
  questions: (e) => [
    `Who is the chief executive officer of ${e.name}?`,
    `Who currently leads ${e.name} as CEO?`,
  ],
  build(entity) {
    const c = entity as Company;
    return {
      domain: "web",
      answer: c.ceoNew.name,
      query: `${c.name} chief executive officer`,
      subject: `the chief executive officer of ${c.name}`,
      primary: {
        url: `http://${c.host}/leadership`,
        value: c.ceoNew.name,
        date: String(c.employeesNew.year),
      },
      outdated: {
        url: `/${c.ceoOld.year}/${c.slug}-ceo-interview`,
        value: c.ceoOld.name,
        date: String(c.ceoOld.year),
      },
    };
  },
};

function censusUrl(city: City, year: number): string {
  return `http://stats.${city.region.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.example/census/${year}/${city.slug}`;
}

const cityPopulation: WebFamily = {
  id: "city-population",
  pitfalls: [outdatedSource],
  entities: (world) => world.cities.filter((c) => c.populationOld.count !== c.populationNew.count),
  questions: (e) => [
    `What is the population of ${e.name}?`,
    `How many people live in the city of ${e.name}?`,
  ],
  build(entity) {
    const c = entity as City;
    return {
      domain: "web",
      answer: plain(c.populationNew.count),
      query: `${c.name} population census`,
      subject: `the population of ${c.name}`,
      primary: {
        url: censusUrl(c, c.populationNew.year),
        value: formatCount(c.populationNew.count),
        date: String(c.populationNew.year),
      },
      outdated: {
        url: censusUrl(c, c.populationOld.year),
        value: formatCount(c.populationOld.count),
        date: String(c.populationOld.year),
      },
    };
  },
};

const cityArea: WebFamily = {
  id: "city-area",
  pitfalls: [unitConversion],
  entities: (world) => world.cities,
  questions: (e) => [
    `What is the land area of ${e.name} in hectares?`,
    `How many hectares of land does the city of ${e.name} cover?`,
  ],
  build(entity) {
    const c = entity as City;
    return {
      domain: "web",
      answer: scaleDecimal(c.areaKm2, 100),
      query: `${c.name} city land area`,
      subject: `the land area of ${c.name}`,
      primary: { url: `http://${c.host}/`, value: c.areaKm2 },
      unit: { page: "km²", asked: "hectares", factor: 100 },
    };
  },
};

const productWeight: WebFamily = {
  id: "product-weight",
  pitfalls: [snippetVersusOfficial, unitConversion],
  entities: (world) => world.products,
  questions: (e) => {
    const p = e as Product;
    return [
      `How much does the ${p.name} ${p.kind} weigh, in grams?`,
      `What is the weight in grams of the ${p.name} ${p.kind}?`,
    ];
  },
  build(entity) {
    const p = entity as Product;
    return {
      domain: "web",
      answer: scaleDecimal(p.weightKg, 1000),
      query: `${p.name} ${p.kind} weight`,
      subject: `the weight of the ${p.name}`,
      primary: { url: `http://${p.maker.host}/products/${p.slug}`, value: p.weightKg },
      snippet: { url: `http://www.shopmart.example/item/${p.slug}`, value: p.listedWeightKg },
      unit: { page: "kg", asked: "grams", factor: 1000 },
    };
  },
};

const batteryKinds = new Set([
  "drone",
  "e-bike",
  "noise-cancelling headphones",
  "robot vacuum",
  "smartwatch",
]);

const productBattery: WebFamily = {
  id: "product-battery",
  pitfalls: [unitConversion],
  entities: (world) => world.products.filter((p) => batteryKinds.has(p.kind)),
  questions: (e) => {
    const p = e as Product;
    return [
      `How many minutes of battery life does the ${p.name} ${p.kind} have?`,
      `What is the battery life of the ${p.name} ${p.kind} in minutes?`,
    ];
  },
  build(entity) {
    const p = entity as Product;
    return {
      domain: "web",
      answer: scaleDecimal(p.batteryHours, 60),
      query: `${p.name} ${p.kind} battery life`,
      subject: `the battery life of the ${p.name}`,
      primary: { url: `http://${p.maker.host}/products/${p.slug}`, value: p.batteryHours },
      unit: { page: "hours", asked: "minutes", factor: 60 },
    };
  },
};

export const webFamilies: readonly WebFamily[] = [
  companyFounded,
  companyEmployees,
  companyCeo,
  cityPopulation,
  cityArea,
  productWeight,
  productBattery,
];

function resolveNewsUrl(world: CorpusWorld, path: string): string {
  // Old news lives on whichever outlet covered it; find it by path.
  for (const doc of world.documents) if (doc.kind === "news" && doc.url.endsWith(path)) return doc.url;
  return path;
}

function instance(world: CorpusWorld, family: WebFamily, entity: Entity, question: string): WebInstance {
  const built = family.build(entity, question);
  if (built.outdated?.url.startsWith("/")) built.outdated.url = resolveNewsUrl(world, built.outdated.url);
  return { ...built, family, question, activePitfalls: [...family.pitfalls] };
}

interface QuestionEntry {
  family: WebFamily;
  entity: Entity;
}

const questionIndexes = new WeakMap<CorpusWorld, Map<string, QuestionEntry>>();

function questionIndex(world: CorpusWorld): Map<string, QuestionEntry> {
  let index = questionIndexes.get(world);
  if (index) return index;
  index = new Map();
  for (const family of webFamilies)
    for (const entity of family.entities(world))
      for (const question of family.questions(entity)) index.set(question, { family, entity });
  questionIndexes.set(world, index);
  return index;
}

/** A web question of this world (exact text as the suite wrote it), or null. */
export function recognizeWebQuestion(world: CorpusWorld, question: string): WebInstance | null {
  const text = question.trim();
  const entry = questionIndex(world).get(text);
  return entry ? instance(world, entry.family, entry.entity, text) : null;
}

/** Split of a (family, entity) pair: both phrasings of one fact always land in the same split. */
export function splitOfWebFact(seed: number, familyId: string, entityName: string): SuiteSplit {
  return suiteSplits[hashParts("web-split", seed, familyId, entityName) % 3]!;
}

export function generateWebInstances(world: CorpusWorld, split: SuiteSplit, size: number): WebInstance[] {
  const pools = webFamilies.map((family) =>
    family
      .entities(world)
      .filter((entity) => splitOfWebFact(world.seed, family.id, entity.name) === split)
      .map((entity) => ({ family, entity })),
  );
  const available = pools.reduce((sum, pool) => sum + pool.length, 0);
  if (size > available) {
    throw new RangeError(
      `the web world of seed ${world.seed} has ${available} ${split} tasks; asked for ${size}`,
    );
  }
  const out: WebInstance[] = [];
  for (let round = 0; out.length < size; round++) {
    for (const pool of pools) {
      const entry = pool[round];
      if (!entry || out.length >= size) continue;
      const variant = hashParts("web-variant", world.seed, entry.family.id, entry.entity.name) % 2;
      out.push(instance(world, entry.family, entry.entity, entry.family.questions(entry.entity)[variant]!));
    }
  }
  return out;
}
