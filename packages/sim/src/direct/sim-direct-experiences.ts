import { hashParts, unitFrom } from "../hash.js";
import { between, wordCount } from "../text/experience-lines.js";

export interface DirectExperienceOptions {
  seed: number;
  /** Chance that a lesson is a guess at a trap suggested by the questions' words (the rest is general advice). */
  insightRate?: number;
}

type Domain = "math" | "web" | "general";

/**
 * General advice the writer knows for a kind of problem, in its own words. Sound but unspecific, as a model writes
 * when it has seen no attempt: most of it names no particular trap.
 */
const generalAdvice: Record<Domain, readonly string[]> = {
  math: [
    "When a problem has several parts, solve each part separately and combine them only at the end.",
    "For word problems, translate each sentence into an equation before computing anything.",
    "When a formula is used, write down what each symbol stands for in this problem first.",
    "For problems with a small search space, enumerate all cases in code and compare with the formula.",
    "If an integer answer is expected, confirm the computed value is whole before reporting it.",
    "For counting problems, test the method on a tiny case you can count by hand.",
    "When a problem gives a list of equations or items, handle each one in turn and add up the results.",
    "For algebra problems, substitute the solution back into the original equation to confirm it.",
    "If an exact value is requested, keep fractions as fractions instead of decimals.",
    "For geometry problems, sketch the figure with coordinates to see which points satisfy the conditions.",
    "When the arithmetic is long, let the code interpreter do it and print the final value.",
    "For problems with units of time or money, state the unit of every intermediate quantity.",
    "When two methods are available, compute the answer both ways and compare them.",
    "For problems with conditions on each element, check every element against each condition.",
    "When the problem defines a new term, restate the definition in your own words before using it.",
  ],
  web: [
    "When looking something up, put the exact name of the organisation or place in the query together with the attribute wanted.",
    "For factual questions, open a page and read the value there instead of guessing from memory.",
    "When several results appear, read the page titles and addresses before choosing which one to open.",
    "For numeric facts, copy the number exactly as written, including its digits and separators.",
    "On a long page, jump to the passage that mentions the attribute asked about rather than reading top to bottom.",
    "For questions about organisations, their own website usually states their basic facts.",
    "When two pages disagree, note which page each value comes from before deciding.",
    "For questions about people's roles, check that the page names the same organisation as the question.",
    "If the results look off-topic, shorten the query to the name plus one keyword and try again.",
    "For answers that are names, give the full name as the page writes it.",
    "If a page shows a table, read the row and column labels before taking a value.",
    "For questions asking for a year, answer with the four-digit year only.",
  ],
  general: [
    "When a question has several conditions, list them and check the answer against each one.",
    "For multi-step tasks, write a short plan before starting and follow it step by step.",
    "When unsure about a fact, look it up instead of relying on memory.",
    "For numeric answers, state the unit and the precision the question asks for.",
    "When the question is ambiguous, choose the most common reading and say which one you used.",
    "For long computations, use code and print intermediate values to spot mistakes.",
  ],
};

/**
 * Guesses at traps from words in the questions, as a model reading only questions would make: a question that says
 * "inclusive" invites a caution about endpoints, one that says "rounded to the nearest" about rounding. Some guesses
 * name the real difficulty of a question, some name a difficulty it does not have: the writer cannot tell.
 */
const cues: readonly { pattern: RegExp; lessons: readonly string[] }[] = [
  {
    pattern: /\binclusive\b|\bincluding both\b|\bthrough\b|\bfirst and (?:the )?last day\b/i,
    lessons: [
      "When a range is described as inclusive, count both of its ends: from a to b there are b - a + 1 whole numbers.",
      "For date spans that include the first and last day, add one to the difference between the dates.",
    ],
  },
  {
    pattern: /\bdistinct\b/i,
    lessons: [
      "If the wording says distinct, a value that shows up several times still counts as one.",
      "For questions about distinct solutions, list them all and remove repeats before counting.",
    ],
  },
  {
    pattern: /\bwithout replacement\b/i,
    lessons: [
      "When items are drawn without replacement, shrink the pool after each draw: the probabilities change from draw to draw.",
    ],
  },
  {
    pattern: /\bwith replacement\b/i,
    lessons: ["When drawing with replacement, every draw sees the full pool, so the draws are independent."],
  },
  {
    pattern: /\brounded to the nearest\b|\bround(?:ed)?\b/i,
    lessons: [
      "If a rounded answer is requested, keep every digit while computing and round a single time at the end.",
      "For answers rounded to the nearest unit, check whether the exact value sits near a half before rounding.",
    ],
  },
  {
    pattern: /\bmod\b|\bremainder\b|\bdivided by\b/i,
    lessons: [
      "When computing a remainder modulo m, report a value from 0 to m - 1; if the computation gives a negative number, add m.",
      "For modular arithmetic with large numbers, reduce each product modulo m as you go to keep numbers small.",
    ],
  },
  {
    pattern: /\d+%|\bpercent\b|\bincreased by\b|\bdecreased by\b|\brises by\b|\bfalls by\b/i,
    lessons: [
      "After one percentage change, the next one acts on the already changed value, not on the starting one.",
      "For percentage problems, convert each percentage to a multiplier such as 1.15 or 0.80 before combining.",
    ],
  },
  {
    pattern: /\bmean\b|\baverage\b/i,
    lessons: [
      "Averages of groups with unequal headcounts combine by weighting each one by its headcount.",
      "For mean problems, compute the total of all values first and divide by the total count.",
    ],
  },
  {
    pattern: /\breal roots?\b|\broots?\b|x\^2/i,
    lessons: [
      "For quadratic equations, use the discriminant to tell two real roots, one repeated root, or none.",
      "When solving a quadratic, factor it first if the coefficients are small integers.",
    ],
  },
  {
    pattern: /\bsegment\b/i,
    lessons: [
      "When a line must meet a segment, check that the crossing point lies between the segment's two endpoints, not just on the line.",
      "For geometry with segments, compute the segment's length to check the setup.",
    ],
  },
  {
    pattern: /\bprobability\b|\bchance\b/i,
    lessons: [
      "For probability questions, count the favourable and the total outcomes the same way, both ordered or both unordered.",
    ],
  },
  {
    pattern: /\bchoose\b|\bcommittee\b|\bselect(?:ed)?\b|\bteam\b/i,
    lessons: [
      "When choosing a group where order does not matter, use combinations, not arrangements.",
      "For selection problems, check whether the chosen positions are distinguishable before counting.",
    ],
  },
  {
    pattern: /\bdays?\b|\b20\d\d\b/i,
    lessons: [
      "For day counts across months, check how many days each month has and whether the year is a leap year.",
    ],
  },
  {
    pattern: /\bcents?\b|\bprice\b|\bcosts?\b|\$/i,
    lessons: ["When money is involved, work in whole cents to avoid floating-point surprises."],
  },
  {
    pattern: /\bcurrent(?:ly)?\b|\bhow many people\b|\bemploy\b|\bpopulation\b/i,
    lessons: [
      "For figures that change over time, check when each source was published and go with the newest.",
      "When a figure changes over time, note the year each source reports it for.",
    ],
  },
  {
    pattern:
      /\bin (?:grams|kilograms|hectares|minutes|hours|seconds|metres|meters|kilometres|kilometers|miles|litres|liters)\b/i,
    lessons: [
      "If the question names a unit, express the value found online in that unit, converting it first if needed.",
      "For unit questions, look for the value on a page that already uses the unit asked for.",
    ],
  },
  {
    pattern: /\bfounded\b|\bwhich year\b|\bwhat year\b/i,
    lessons: [
      "For an organisation's founding year, read it on the organisation's own site rather than in a search listing.",
      "When a year is asked for, check that the page's year refers to the same event as the question.",
    ],
  },
  {
    pattern: /\bceo\b|\bchief executive\b|\bleads\b/i,
    lessons: ["For questions about who leads an organisation, check the date of the page; leaders change."],
  },
];

function guessDomain(label: string, problems: readonly string[]): Domain {
  const lower = label.toLowerCase();
  if (lower === "math" || lower === "web") return lower;
  const text = problems.join(" ");
  if (/\b(?:founded|website|population|employ|chief executive|ceo|weigh)\b/i.test(text)) return "web";
  if (/\d/.test(text)) return "math";
  return "general";
}

function fit(text: string, limit: number): string {
  if (wordCount(text) <= limit) return text;
  return `${text
    .split(/\s+/)
    .slice(0, limit)
    .join(" ")
    .replace(/[,;:]$/, "")}.`;
}

/**
 * Lessons written from the training questions' text alone, without rollouts (the paper's "direct experiences"
 * baseline). It reads no hidden task state and knows no pitfall: mostly general advice, and now and then a guess at a
 * trap from words that recur in the questions. Deterministic by seed and prompt.
 */
export function writeDirectExperiences(
  prompt: string,
  options: DirectExperienceOptions,
): { experiences: string[] } {
  const { seed } = options;
  const insightRate = options.insightRate ?? 0.3;
  const count = Math.max(0, Math.min(50, Number(between(prompt, "lesson_count") ?? "5") || 0));
  const limit = Number(/at most (\d+) words/i.exec(prompt)?.[1] ?? 32);
  const problems = (between(prompt, "problems") ?? "")
    .split("\n")
    .map((line) => line.replace(/^\s*-\s*/, "").trim())
    .filter(Boolean);
  const domain = guessDomain((between(prompt, "domain") ?? "").trim(), problems);

  // Cues weighted by how many questions show them: a theme that recurs is what a reader notices.
  const guesses: { lesson: string; weight: number }[] = [];
  for (const cue of cues) {
    const hits = problems.filter((question) => cue.pattern.test(question)).length;
    if (hits > 0) for (const lesson of cue.lessons) guesses.push({ lesson, weight: Math.sqrt(hits) });
  }
  const general = [...generalAdvice[domain], ...(domain === "general" ? [] : generalAdvice.general)];

  const out: string[] = [];
  const take = <T>(items: T[], index: number): T => items.splice(index % items.length, 1)[0]!;
  for (let i = 0; i < count; i++) {
    let lesson: string | undefined;
    if (guesses.length > 0 && unitFrom("direct", seed, prompt, i) < insightRate) {
      const total = guesses.reduce((sum, g) => sum + g.weight, 0);
      let target = unitFrom("direct-guess", seed, prompt, i) * total;
      let index = 0;
      while (index < guesses.length - 1 && target >= guesses[index]!.weight)
        target -= guesses[index++]!.weight;
      lesson = take(guesses, index).lesson;
    } else if (general.length > 0) {
      lesson = take(general, hashParts("direct-general", seed, prompt, i));
    } else if (guesses.length > 0) {
      lesson = take(guesses, hashParts("direct-guess-left", seed, prompt, i)).lesson;
    }
    lesson ??= `When a ${domain} problem resists, restate what is asked and try a smaller case first (${i + 1}).`;
    lesson = fit(lesson, limit);
    let unique = lesson;
    for (let k = 2; out.includes(unique); k++) unique = `${lesson.replace(/\.$/, "")} (${k}).`;
    out.push(unique);
  }
  return { experiences: out };
}
