import { capitalize, escapeHtml, formatCount, humanDate, renderPage, slugify } from "./corpus-page.js";
import { createRandom, hashParts, pick, randomInt } from "./hash.js";

/** One page of the simulated web, in the form the tools' local-corpus provider indexes. */

export interface CorpusDocument {
  url: string;
  title: string;
  /** Full HTML page (nav, article, footer), so readability extraction has real work to do. */
  content: string;
  /** ISO date shown on the page, when it has one. */
  published?: string;
  kind: "official" | "aggregator" | "news" | "report" | "census" | "encyclopedia" | "retailer" | "review";
  /** One-line summary used as the page's meta description (what search snippets show). */
  description: string;
}

export interface Company {
  name: string;
  slug: string;
  host: string;
  founded: number;
  /** What the aggregator wrongly lists. */
  listedFounded: number;
  headquarters: string;
  industry: string;
  employeesOld: { year: number; count: number };
  employeesNew: { year: number; count: number };
  ceoOld: { name: string; year: number };
  ceoNew: { name: string; since: number };
}

export interface City {
  name: string;
  slug: string;
  host: string;
  region: string;
  /** Land area in km^2 with two decimals, as the official page lists it. */
  areaKm2: string;
  populationOld: { year: number; count: number };
  populationNew: { year: number; count: number };
}

export interface Product {
  name: string;
  slug: string;
  maker: Company;
  kind: string;
  /** Official weight in kg (two decimals), and the retailer's wrong listing. */
  weightKg: string;
  listedWeightKg: string;
  /** Battery life in hours (one decimal). */
  batteryHours: string;
}

export interface CorpusWorld {
  seed: number;
  companies: Company[];
  cities: City[];
  products: Product[];
  documents: CorpusDocument[];
  byUrl: Map<string, CorpusDocument>;
}

const syllables =
  "zor blax vel tri quen dar mor lith ka ven sol pra nix tal ber gon rho mi sel dra ton va lu fen cor ix ael bri os tem ul yar ost pen kri".split(
    " ",
  );
const companySuffixes = [
  "Dynamics",
  "Systems",
  "Labs",
  "Industries",
  "Robotics",
  "Foods",
  "Energy",
  "Logistics",
  "Analytics",
  "Textiles",
];
const industries: Record<string, string> = {
  Dynamics: "industrial machinery",
  Systems: "enterprise software",
  Labs: "biotechnology",
  Industries: "consumer goods",
  Robotics: "warehouse robots",
  Foods: "packaged food",
  Energy: "solar power",
  Logistics: "freight logistics",
  Analytics: "data analytics",
  Textiles: "technical fabrics",
};
const firstNames = [
  "Mara",
  "Tomas",
  "Ines",
  "Kofi",
  "Lena",
  "Ravi",
  "Sofia",
  "Jonas",
  "Amara",
  "Felix",
  "Noor",
  "Elena",
  "Hugo",
  "Yuki",
];
const regions = ["Northmark", "Eastvale", "Southreach", "Westholm", "Midland Province"];
const productKinds = [
  "drone",
  "electric kettle",
  "e-bike",
  "noise-cancelling headphones",
  "camping tent",
  "blender",
  "robot vacuum",
  "smartwatch",
];
const modelWords = ["Aero", "Nova", "Pulse", "Terra", "Flux", "Orbit", "Vanta", "Echo", "Strata", "Lumen"];
const outlets = [
  { host: "news.dailyledger.example", name: "The Daily Ledger" },
  { host: "www.businesswire-sim.example", name: "BusinessWire (sim)" },
  { host: "www.techherald.example", name: "Tech Herald" },
];

function isoDate(random: () => number, year: number): string {
  return `${year}-${String(randomInt(random, 1, 12)).padStart(2, "0")}-${String(randomInt(random, 1, 28)).padStart(2, "0")}`;
}

const worldCache = new Map<number, CorpusWorld>();

/** The simulated web of a world seed: entities, their pages, and a URL index. Cached per seed (immutable). */
export function createCorpusWorld(seed: number): CorpusWorld {
  const cached = worldCache.get(seed);
  if (cached) return cached;
  const random = createRandom(hashParts("corpus-world", seed));
  const usedNames = new Set<string>();
  const uniqueWord = (minSyllables: number, maxSyllables: number): string => {
    for (;;) {
      const count = randomInt(random, minSyllables, maxSyllables);
      let word = "";
      for (let i = 0; i < count; i++) word += pick(syllables, random());
      const name = capitalize(word);
      if (!usedNames.has(name) && name.length >= 5) {
        usedNames.add(name);
        return name;
      }
    }
  };
  const person = () => `${pick(firstNames, random())} ${uniqueWord(2, 3)}`;

  const companies: Company[] = [];
  for (let i = 0; i < 60; i++) {
    const suffix = pick(companySuffixes, random());
    const name = `${uniqueWord(2, 3)} ${suffix}`;
    const slug = slugify(name);
    const founded = randomInt(random, 1952, 2016);
    const oldYear = randomInt(random, 2015, 2019);
    const newYear = randomInt(random, 2022, 2024);
    const oldCount = randomInt(random, 80, 9000);
    const newCount = Math.round(oldCount * (1.1 + random() * 0.8));
    companies.push({
      name,
      slug,
      host: `www.${slug}.example`,
      founded,
      listedFounded: founded + pick([-3, -2, -1, 1, 2, 4], random()),
      headquarters: "",
      industry: industries[suffix]!,
      employeesOld: { year: oldYear, count: oldCount },
      employeesNew: { year: newYear, count: newCount },
      ceoOld: { name: person(), year: oldYear },
      ceoNew: { name: person(), since: randomInt(random, oldYear + 1, newYear) },
    });
  }
  const cities: City[] = [];
  for (let i = 0; i < 45; i++) {
    const name = uniqueWord(2, 3);
    const slug = slugify(name);
    const oldCount = randomInt(random, 12_000, 900_000);
    cities.push({
      name,
      slug,
      host: `www.${slug}-city.example`,
      region: pick(regions, random()),
      areaKm2: (randomInt(random, 1200, 48000) / 100).toFixed(2),
      populationOld: { year: 2012, count: oldCount },
      populationNew: { year: 2022, count: Math.round(oldCount * (0.92 + random() * 0.3)) },
    });
  }
  for (const company of companies) company.headquarters = pick(cities, random()).name;
  const products: Product[] = [];
  for (let i = 0; i < 60; i++) {
    const maker = pick(companies, random());
    const kind = pick(productKinds, random());
    const model = `${pick(modelWords, random())} ${String.fromCharCode(65 + randomInt(random, 0, 25))}${randomInt(random, 2, 9)}`;
    const name = `${maker.name.split(" ")[0]} ${model}`;
    if (products.some((p) => p.name === name)) {
      i--;
      continue;
    }
    const weight = randomInt(random, 35, 2400) / 100;
    const wrong = weight + pick([-0.3, -0.15, 0.1, 0.2, 0.45], random());
    products.push({
      name,
      slug: slugify(name),
      maker,
      kind,
      weightKg: weight.toFixed(2),
      listedWeightKg: Math.max(0.1, wrong).toFixed(2),
      batteryHours: (randomInt(random, 4, 60) / 2).toFixed(1),
    });
  }

  const documents: CorpusDocument[] = [];
  const add = (doc: CorpusDocument) => documents.push(doc);
  for (const company of companies) {
    const site = `${company.name} — official site`;
    const nav = ["Products", "About", "Leadership", "Investors", "Careers"];
    const outletOld = pick(outlets, random());
    const outletCeo = pick(outlets, random());
    add({
      kind: "official",
      url: `http://${company.host}/about`,
      title: `About ${company.name}`,
      description: `${company.name} makes ${company.industry}. Learn about our history, values and teams.`,
      content: renderPage({
        site,
        nav,
        seed,
        title: `About ${company.name}`,
        description: `${company.name} makes ${company.industry}. Learn about our history, values and teams.`,
        body:
          `<p>${company.name} is a ${company.industry} company headquartered in ${company.headquarters}.</p>` +
          `<h2>Our history</h2><p>${company.name} was founded in ${company.founded} in ${company.headquarters} by a small team of engineers.</p>` +
          `<table class="facts"><tr><th>Founded</th><td>${company.founded}</td></tr><tr><th>Headquarters</th><td>${company.headquarters}</td></tr>` +
          `<tr><th>Industry</th><td>${escapeHtml(capitalize(company.industry))}</td></tr></table>` +
          "<p>We believe in building products that last.</p>",
        aside: `<a href="/leadership">Leadership</a> <a href="/annual-report-${company.employeesNew.year}">Annual report ${company.employeesNew.year}</a>`,
      }),
    });
    const leadershipDate = isoDate(random, company.employeesNew.year);
    add({
      kind: "official",
      url: `http://${company.host}/leadership`,
      title: `Leadership — ${company.name}`,
      published: leadershipDate,
      description: `Meet the leadership team of ${company.name}.`,
      content: renderPage({
        site,
        nav,
        seed,
        title: `Leadership — ${company.name}`,
        published: leadershipDate,
        description: `Meet the leadership team of ${company.name}.`,
        body:
          `<p>${company.ceoNew.name} has served as chief executive officer of ${company.name} since ${company.ceoNew.since}.</p>` +
          `<p>${company.ceoNew.name} succeeded ${company.ceoOld.name}, who led the company through its early growth.</p>`,
      }),
    });
    const reportDate = `${company.employeesNew.year + 1}-03-${String(randomInt(random, 10, 28))}`;
    const reportText = `At the end of ${company.employeesNew.year}, ${company.name} employed ${formatCount(company.employeesNew.count)} people.`;
    add({
      kind: "report",
      url: `http://${company.host}/annual-report-${company.employeesNew.year}`,
      title: `${company.name} Annual Report ${company.employeesNew.year}`,
      published: reportDate,
      description: `Annual report ${company.employeesNew.year}: results, workforce and outlook of ${company.name}.`,
      content: renderPage({
        site,
        nav,
        seed,
        title: `${company.name} Annual Report ${company.employeesNew.year}`,
        published: reportDate,
        description: `Annual report ${company.employeesNew.year}: results, workforce and outlook of ${company.name}.`,
        body: `<h2>Workforce</h2><p>${reportText}</p><h2>Outlook</h2><p>We expect steady demand for ${company.industry}.</p>`,
      }),
    });
    const oldNewsDate = isoDate(random, company.employeesOld.year);
    const workforceTitle = `${company.name} grows workforce to ${formatCount(company.employeesOld.count)} employees`;
    add({
      kind: "news",
      url: `http://${outletOld.host}/${company.employeesOld.year}/${company.slug}-workforce`,
      title: workforceTitle,
      published: oldNewsDate,
      description: `${humanDate(oldNewsDate)} — ${company.name} now employs ${formatCount(company.employeesOld.count)} people, the company said.`,
      content: renderPage({
        site: outletOld.name,
        nav: ["Business", "Technology", "Markets", "Opinion"],
        seed,
        title: workforceTitle,
        published: oldNewsDate,
        description: `${company.name} now employs ${formatCount(company.employeesOld.count)} people.`,
        body:
          `<p>${company.name}, the ${company.industry} maker based in ${company.headquarters}, now employs ${formatCount(company.employeesOld.count)} people, the company said on Tuesday.</p>` +
          `<p>Chief executive ${company.ceoOld.name} said hiring would continue.</p>`,
        aside: `<a href="/markets">Markets today</a>`,
      }),
    });
    const ceoNewsDate = isoDate(random, company.ceoOld.year);
    const ceoTitle = `Interview: ${company.name} chief executive ${company.ceoOld.name} on the road ahead`;
    add({
      kind: "news",
      url: `http://${outletCeo.host}/${company.ceoOld.year}/${company.slug}-ceo-interview`,
      title: ceoTitle,
      published: ceoNewsDate,
      description: `${humanDate(ceoNewsDate)} — ${company.ceoOld.name}, chief executive officer of ${company.name}, talks strategy.`,
      content: renderPage({
        site: outletCeo.name,
        nav: ["Business", "Technology", "Markets", "Opinion"],
        seed,
        title: ceoTitle,
        published: ceoNewsDate,
        description: `${company.ceoOld.name}, chief executive officer of ${company.name}, talks strategy.`,
        body: `<p>${company.ceoOld.name}, chief executive officer of ${company.name}, sat down with us to discuss the company's plans.</p><p>"We are just getting started," ${company.ceoOld.name} said.</p>`,
      }),
    });
    const profileDescription = `${company.name}: founded ${company.listedFounded}, headquarters ${company.headquarters}, industry ${company.industry}.`;
    add({
      kind: "aggregator",
      url: `http://www.companyfacts.example/company/${company.slug}`,
      title: `${company.name} company profile — CompanyFacts`,
      description: profileDescription,
      content: renderPage({
        site: "CompanyFacts",
        nav: ["Companies", "Industries", "Rankings"],
        seed,
        title: `${company.name} company profile`,
        description: profileDescription,
        body:
          `<p>${profileDescription}</p>` +
          `<dl><dt>Founded</dt><dd>${company.listedFounded}</dd><dt>Headquarters</dt><dd>${company.headquarters}</dd></dl>` +
          "<p>Data compiled from public filings; may be out of date.</p>",
      }),
    });
  }
  for (const city of cities) {
    const site = `City of ${city.name}`;
    const officialDescription = `Official website of the City of ${city.name}, ${city.region}: services, council and city facts.`;
    add({
      kind: "official",
      url: `http://${city.host}/`,
      title: `City of ${city.name} — Official website`,
      description: officialDescription,
      content: renderPage({
        site,
        nav: ["Residents", "Business", "Visitors", "Council"],
        seed,
        title: `City of ${city.name}`,
        description: officialDescription,
        body:
          `<p>Welcome to ${city.name}, a city in ${city.region}. The city covers a land area of ${city.areaKm2} km².</p><h2>City facts</h2>` +
          `<table class="facts"><tr><th>Land area</th><td>${city.areaKm2} km²</td></tr><tr><th>Region</th><td>${city.region}</td></tr></table>`,
      }),
    });
    for (const census of [city.populationOld, city.populationNew]) {
      const published = `${census.year + 1}-0${randomInt(random, 2, 9)}-15`;
      const description = `Census ${census.year} results for ${city.name}: population ${formatCount(census.count)}.`;
      add({
        kind: "census",
        url: `http://stats.${slugify(city.region)}.example/census/${census.year}/${city.slug}`,
        title: `Census ${census.year}: ${city.name}`,
        published,
        description,
        content: renderPage({
          site: `${city.region} Statistics Office`,
          nav: ["Census", "Economy", "Methods"],
          seed,
          title: `Census ${census.year}: ${city.name}`,
          published,
          description,
          body: `<p>On census day ${census.year}, ${city.name} had a population of ${formatCount(census.count)}.</p>`,
        }),
      });
    }
    const wikiDescription = `${city.name} is a city in ${city.region} with a population of ${formatCount(city.populationOld.count)} (${city.populationOld.year} census).`;
    add({
      kind: "encyclopedia",
      url: `http://www.wikiverse.example/wiki/${city.name}`,
      title: `${city.name} — Wikiverse`,
      description: wikiDescription,
      content: renderPage({
        site: "Wikiverse",
        nav: ["Main page", "Random article", "Help"],
        seed,
        title: city.name,
        description: wikiDescription,
        body: `<p>${wikiDescription}</p><p>The city covers ${city.areaKm2} km².</p>`,
      }),
    });
  }
  for (const product of products) {
    const officialDescription = `${product.name} ${product.kind} by ${product.maker.name}: features and specifications.`;
    add({
      kind: "official",
      url: `http://${product.maker.host}/products/${product.slug}`,
      title: `${product.name} — ${product.maker.name}`,
      description: officialDescription,
      content: renderPage({
        site: `${product.maker.name} — official site`,
        nav: ["Products", "Support", "About"],
        seed,
        title: `${product.name} ${product.kind}`,
        description: officialDescription,
        body:
          `<p>The ${product.name} is our latest ${product.kind}. It weighs ${product.weightKg} kg and its battery lasts up to ${product.batteryHours} hours.</p><h2>Specifications</h2>` +
          `<table class="specs"><tr><th>Weight</th><td>${product.weightKg} kg</td></tr><tr><th>Battery life</th><td>${product.batteryHours} hours</td></tr></table>`,
      }),
    });
    const listing = `${product.name} ${product.kind} — weighs ${product.listedWeightKg} kg. Free delivery.`;
    add({
      kind: "retailer",
      url: `http://www.shopmart.example/item/${product.slug}`,
      title: `${product.name} | ShopMart`,
      description: listing,
      content: renderPage({
        site: "ShopMart",
        nav: ["Deals", "Electronics", "Home", "Outdoors"],
        seed,
        title: `${product.name} ${product.kind}`,
        description: listing,
        body: `<p>${escapeHtml(listing)}</p><p>Customer rating: 4.${randomInt(random, 0, 9)} / 5</p>`,
      }),
    });
    const reviewDate = isoDate(random, 2024);
    const review = `Our review of the ${product.name}: about ${product.batteryHours} hours of battery life in our tests.`;
    add({
      kind: "review",
      url: `http://www.gadgetreview.example/reviews/${product.slug}`,
      title: `${product.name} review`,
      published: reviewDate,
      description: review,
      content: renderPage({
        site: "GadgetReview",
        nav: ["Reviews", "Guides", "Deals"],
        seed,
        title: `${product.name} review`,
        published: reviewDate,
        description: review,
        body: `<p>${escapeHtml(review)}</p><p>Verdict: a solid ${product.kind}.</p>`,
      }),
    });
  }
  const world: CorpusWorld = {
    seed,
    companies,
    cities,
    products,
    documents,
    byUrl: new Map(documents.map((doc) => [doc.url, doc])),
  };
  worldCache.set(seed, world);
  return world;
}
