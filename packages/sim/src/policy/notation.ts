/**
 * How the simulated policy reads math notation and code inside a lesson: each recognised form is rewritten into the
 * words a reader would say for it ("b^2 - 4ac" -> "discriminant", "range(lo, hi + 1)" -> "include upper endpoint"),
 * so the lesson reader weighs `range(a, b + 1)` and "include both endpoints" alike. This is the policy's knowledge of
 * notation (a capable model reads code and formulas); no other simulated role uses it.
 */

const operand = String.raw`[A-Za-z_][\w.]*|\d+`;
const sum = String.raw`(?:${operand})(?:\s*[-+*/]\s*(?:${operand}))*`;

interface Rewrite {
  pattern: RegExp;
  words: string | ((match: RegExpExecArray) => string);
}

function hasPlusOne(expression: string): boolean {
  return /\+\s*1\b/.test(expression);
}

const rewrites: readonly Rewrite[] = [
  // Python ranges: range(a, b + 1) includes b; range(a + 1, b) leaves a out; range(a, b) leaves b out.
  {
    pattern: new RegExp(String.raw`\brange\(\s*(${sum})\s*,\s*(${sum})\s*(?:,[^)]*)?\)`, "g"),
    words: (m) => {
      const low = m[1]!;
      const high = m[2]!;
      const parts: string[] = ["range"];
      if (hasPlusOne(low)) parts.push("exclude lower endpoint");
      if (hasPlusOne(high)) parts.push("include upper endpoint");
      else parts.push("exclude upper endpoint");
      return ` ${parts.join(" ")} `;
    },
  },
  // Worked examples: "from 3 through 17 ... 15 days" shows whether both ends were counted.
  {
    pattern:
      /(?:(?:from|between)\s+)?(?:[a-z]+\s+){0,2}?(-?\d+)\s+(?:to|through|and|until|thru)\s+(?:[a-z]+\s+){0,2}?(-?\d+)\b([^.;]*)/gi,
    words: (m) => {
      const low = Number(m[1]);
      const high = Number(m[2]);
      // "29 numbers, not 28": a number ruled out is no worked answer.
      const rest = (m[3] ?? "").replace(/\b(?:not|never|rather than|instead of)\s+-?\d+/gi, "");
      const numbers = (rest.match(/-?\d+/g) ?? []).map(Number);
      let note = "";
      if (numbers.includes(high - low + 1)) note = " count include both endpoint ";
      else if (numbers.includes(high - low)) note = " subtract only ";
      else if (numbers.includes(high - low - 1)) note = " count exclude both endpoint ";
      // The note is a sentence of its own, so a negation later in the example's sentence does not reach it.
      return note === "" ? m[0] : `${m[0]};${note};`;
    },
  },
  // Worked conversions: "2 hours asked in minutes is 2" answers with the given number unchanged, so in the unit it
  // was given in; "3.2 km², asked in hectares → 320" changed it, so converted it (the answer may follow the question
  // as its own sentence: "… the question wants hectares? Answer 320.").
  {
    pattern:
      /(\d[\d,]*(?:\.\d+)?)\s*[A-Za-z]+(?:\^\d)?(?![\w^])((?:[^.;?]|\.(?=\d))*?\b(?:ask|asks|asked|asking|request\w*|want\w*)\b(?:[^.;?]|\.(?=\d))*(?:\?(?:[^.;?]|\.(?=\d))*)?)/gi,
    words: (m) => {
      const given = Number(m[1]!.replace(/,/g, ""));
      const rest = m[2]!.replace(/\b(?:not|never|rather than|instead of)\s+\d[\d,]*(?:\.\d+)?/gi, "");
      const answers = (rest.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((n) => Number(n.replace(/,/g, "")));
      if (answers.length === 0) return m[0]!;
      const note = answers.at(-1) === given ? " keep page unit " : " convert ";
      return `${m[0]};${note};`;
    },
  },
  // Worked choices between dated figures: "1.2M (2018), another 1.4M (2022): report 1.4M" reports the newest one.
  {
    pattern: /(?:[^.;!?]|\.(?=\d))+/g,
    words: (m) => {
      const sentence = m[0]!;
      const value = (figure: string) => Number(figure.replace(/,/g, ""));
      const dated = [
        ...sentence.matchAll(
          /(\d[\d,]*(?:\.\d+)?)\s*[A-Za-z]*(?:\s+[A-Za-z]+){0,2}\s*\(\s*((?:19|20)\d\d)\s*\)/g,
        ),
      ].map((match) => ({
        value: value(match[1]!),
        year: Number(match[2]),
        end: match.index + match[0].length,
      }));
      if (new Set(dated.map((figure) => figure.year)).size < 2) return sentence;
      const answer = sentence
        .slice(dated.at(-1)!.end)
        .replace(/\b(?:not|never|rather than|instead of)\s+\d[\d,]*(?:\.\d+)?/gi, "")
        .match(/\d[\d,]*(?:\.\d+)?/g)
        ?.map(value)
        .at(-1);
      if (answer === undefined) return sentence;
      const years = dated.filter((figure) => figure.value === answer).map((figure) => figure.year);
      if (years.length === 0) return sentence;
      const newest = Math.max(...dated.map((figure) => figure.year));
      const oldest = Math.min(...dated.map((figure) => figure.year));
      // The year tags are read into the note; left in, a bare year would read as a date of its own.
      const untagged = sentence.replace(/\s*\(\s*(?:19|20)\d\d\s*\)/g, "");
      if (years.includes(newest)) return `${untagged}; use the most recent;`;
      if (years.includes(oldest)) return `${untagged}; use the oldest;`;
      return sentence;
    },
  },
  {
    pattern: /\b(\d+)\s*-\s*(\d+)\s*(\+\s*1\s*|-\s*1\s*)?=\s*(\d+)\b/g,
    words: (m) => {
      const difference = Number(m[1]) - Number(m[2]);
      const result = Number(m[4]);
      if (result === difference + 1) return " count include both endpoint ";
      if (result === difference - 1) return " count exclude both endpoint ";
      if (result === difference) return " subtract only ";
      return m[0]!;
    },
  },
  { pattern: /-\s*[\w.]*\([^()]*\)\s*\+\s*1\b/g, words: " count include both endpoint " },
  // Counts of a closed range: hi - lo + 1 (or (b - a)/k + 1) includes both ends; b - a - 1 leaves both out.
  {
    pattern: new RegExp(
      String.raw`\(?\s*(?:${operand})\s*-\s*(?:${operand})\s*\)?(?:\.days)?(?:\s*/\s*(?:${operand}))?\s*\+\s*1\b`,
      "g",
    ),
    words: " count include both endpoint ",
  },
  {
    pattern: /\b(?:[A-Za-z_]\w*)\s*-\s*(?:[A-Za-z_]\w*)\s*-\s*1\b/g,
    words: " count exclude both endpoint ",
  },
  // A bare difference of two bounds, or of two dates, as a count leaves one end out.
  {
    pattern:
      /\(?\b(?:[a-z]|hi|lo|high|low|end|start|last|first|upper|lower|stop)\s*-\s*(?:[a-z]|hi|lo|high|low|end|start|last|first|upper|lower)\b\)?(?:\.days)?(?!\s*[+-]\s*1\b)(?!\s*[*^])/g,
    words: " subtract only ",
  },
  // Residues: 0 <= r < m is the least nonnegative one; "mod m = -k" keeps a negative remainder.
  { pattern: /\b0\s*(?:<=|≤|=<)\s*[a-z]\w*\s*<\s*(?!1\b)[a-z|]\w*/gi, words: " nonnegative residue " },
  { pattern: /\bmod\s*\w+\s*(?:=|==|is|equals)\s*-\s*\d+/gi, words: " mod negative remainder " },
  // sympy's Line is the infinite line; Segment is the bounded one.
  { pattern: /\bLine\(\s*\w+\s*,\s*\w+\s*\)/g, words: " infinite line " },
  { pattern: /\bSegment\(\s*\w+\s*,\s*\w+\s*\)/g, words: " segment within " },
  // Segment parameters: 0 <= t <= 1 keeps a point on the segment; t outside [0, 1] is on the extension.
  {
    pattern: /\b0\s*(?:<=|≤|=<|<)\s*[a-z]\s*(?:<=|≤|=<|<)\s*1\b/g,
    words: " parameter within segment between endpoint ",
  },
  { pattern: /\[\s*0\s*,\s*1\s*\]/g, words: " within segment interval " },
  {
    pattern: /\bmin\((?:[^()]|\([^()]*\))*\)\s*(?:<=|≤)\s*\w+\s*(?:<=|≤)\s*max\((?:[^()]|\([^()]*\))*\)/g,
    words: " within segment between endpoint ",
  },
  { pattern: /\b[a-z]\w*\s*(?:<=|≤)\s*[a-z]\w*\s*(?:<=|≤)\s*[a-z]\w*\b/g, words: " within between bound " },
  {
    pattern: /\)\s*[*·]?\s*\([^()]*(?:\([^()]*\))?[^()]*\)\s*(?:<=|≤)\s*0\b/g,
    words: " opposite side within segment ",
  },
  { pattern: /\b(?:t|s|λ|lambda)\s*(?:<\s*0|>\s*1)\b/g, words: " parameter outside segment extension " },
  // The discriminant in its usual spellings, and its sign.
  {
    pattern:
      /\b(?:b|p)\s*(?:\^\s*2|\*\*\s*2|²|\s*\*\s*(?:b|p))\s*-\s*4\s*\*?\s*(?:a\s*\*?\s*c|q|ac)\b|\bΔ|\bdelta\b/gi,
    words: " discriminant ",
  },
  {
    pattern: /\bb\s*(?:\^\s*2|\*\*\s*2|²)\s*(?:>=|≥)\s*4\s*\*?\s*a\s*\*?\s*c\b/gi,
    words: " discriminant nonnegative ",
  },
  {
    pattern: /\bb\s*(?:\^\s*2|\*\*\s*2|²)\s*<\s*4\s*\*?\s*a\s*\*?\s*c\b/gi,
    words: " discriminant negative ",
  },
  { pattern: /[±+-]\s*\d*\.?\d*\s*[a-z]?\*?i\b(?!\w)/g, words: " complex " },
  { pattern: /\bD\s*=[^;,]*<\s*0\b/g, words: " discriminant negative " },
  { pattern: /\bD\s*=[^;,<>]*=\s*0\b/g, words: " discriminant zero " },
  { pattern: /\b2\s+if\s+(?:D|d|disc\w*)\s*>=\s*0\b/g, words: " count two double " },
  { pattern: /\b(?:discriminant|d)\s*<\s*0\b/gi, words: " discriminant negative " },
  { pattern: /\b(?:discriminant|d)\s*(?:==?|=)\s*0\b/gi, words: " discriminant zero " },
  { pattern: /\b(?:discriminant|d)\s*>=\s*0\b/gi, words: " discriminant nonnegative " },
  { pattern: /\b(?:discriminant|d)\s*>\s*0\b/gi, words: " discriminant positive " },
  { pattern: /\bcmath\b|\bsympy\.solve\b|\bnp\.roots\b|\bnumpy\.roots\b/g, words: " solver root complex " },
  { pattern: /\blen\(\s*set\(/g, words: " distinct root count ( " },
  { pattern: /\bset\(\s*roots?\s*\)/g, words: " distinct root " },
  { pattern: /\blen\(\s*(?:sympy\.)?(?:solve|roots?|solutions?)\b/g, words: " count all root ( " },
  { pattern: /\bS\.Reals\b|\bdomain\s*=\s*\w*Reals?\b|\bsolveset\b/g, words: " real only " },
  { pattern: /\bsympy\.real_roots\b|\breal_roots\b|\bis_real\b|\.imag\s*==\s*0/g, words: " real root only " },
  // Remainders: math.fmod and C-style % keep the dividend's sign; Python's % and ((a % m) + m) % m do not.
  { pattern: /\bFraction\([^)]*\)\s*\*\s*Fraction\(/g, words: " multiply factor Fraction( " },
  { pattern: /\bmath\.fmod\b|\bfmod\b|\bnp\.fmod\b/g, words: " fmod truncated remainder keep sign " },
  {
    pattern: /\(\s*\(\s*\w+\s*%\s*\w+\s*\)\s*\+\s*\w+\s*\)\s*%\s*\w+/g,
    words: " add modulus nonnegative residue ",
  },
  { pattern: /\bdivmod\b|\/\/|\bfloor\s+division\b/g, words: " floor division " },
  // `x % m` and `x%m` are Python's remainder; "a% more" (no space before, a word after) is a percentage.
  {
    pattern: /(?<=[\w)\]])\s+%\s+(?=[A-Za-z_(\d])|(?<=[\w)\]])%(?=[A-Za-z_(\d])/g,
    words: " python mod operator ",
  },
  { pattern: /(?<=\b[a-z])%(?=[\s,.;:)]|$)/g, words: " percent " },
  // Successive percentages: a product of factors vs a net change.
  {
    pattern:
      /\(\s*1\s*[+-]\s*[\w.]+\s*(?:\/\s*100|%)?\s*\)\s*(?:[*×·]|by|times)?\s*\(\s*1\s*[+-]\s*[\w.]+\s*(?:\/\s*100|%)?\s*\)/g,
    words: " multiply factor successive ",
  },
  { pattern: /\*=\s*\(?\s*(?:1\s*[+-]|factor)/g, words: " multiply factor successive " },
  { pattern: /\bsum\(\s*(?:rates?|percent\w*|changes?|pcts?)\s*\)/g, words: " net add percent " },
  { pattern: /\b1\.\d+\s*[*×·]\s*0\.\d+\b/g, words: " multiply factor successive " },
  {
    pattern: /\(\s*\w+\s*-\s*\w+\s*\)\s*(?:%|\/\s*100)|\b1\s*\+\s*\(\s*\w+\s*-\s*\w+\s*\)\s*\/\s*100/g,
    words: " net change original ",
  },
  // Combined means: Σ n_i m_i / Σ n_i vs the mean of the means.
  {
    pattern: /(?:Σ|sum)\s*\(?\s*\w+?_?i?\s*[*·×]?\s*\w+?_?i?\s*\)?\s*\/\s*(?:Σ|sum)\s*\(?\s*\w+_?i?\s*\)?/gi,
    words: " weight size total sum divide total count ",
  },
  { pattern: /\bsum\(\s*\w+\s*\*\s*\w+\s+for\b/g, words: " weight size total sum " },
  { pattern: /\(\s*n\w*\s*[·*×]?\s*m\w*\s*\+\s*n\w*\s*[·*×]?\s*m\w*/g, words: " weight size total sum " },
  {
    pattern:
      /\(\s*m\w*\s*\+\s*m\w*(?:\s*\+\s*(?:\.\.\.|…|m\w*))*\s*\)\s*\/\s*(?:\d+|k|n)\b|\b(?:np\.|numpy\.|statistics\.)?mean\(\s*(?:class_|group_)?means\s*\)/gi,
    words: " simple average mean of mean ",
  },
  { pattern: /\(\s*\d+\s*[·*×]\s*\d+\s*\+\s*\d+\s*[·*×]\s*\d+/g, words: " weight size total sum " },
  // (80 + 60)/2 averages two means; (800 + 1800)/40 divides a total by a headcount.
  {
    pattern: /\(\s*\d+(?:\.\d+)?(?:\s*\+\s*\d+(?:\.\d+)?)+\s*\)\s*\/\s*(\d+)/g,
    words: (m) => {
      const terms = (m[0]!.match(/\+/g) ?? []).length + 1;
      return Number(m[1]) === terms ? " simple average mean of mean " : " total sum divide total count ";
    },
  },
  {
    pattern:
      /\b(?:mean|average)s?\s+of\s+(?:the\s+|their\s+|all\s+)?(?:[a-z-]+\s+){0,2}(?:means|averages)\b/gi,
    words: " mean of mean ",
  },
  { pattern: /\bsum\(\s*means?\s*\)\s*\/\s*len\(\s*means?\s*\)/gi, words: " simple average mean of mean " },
  // Counting choices: combinations vs permutations.
  {
    pattern:
      /\bmath\.comb\b|\bcomb\(|\bbinom\b|\\binom|\\dbinom|\b[Cc]\(\s*\w+\s*,\s*\w+\s*\)|\b\w?C[rk]\b|\bn\s*choose\s*k\b|\w+!\s*\/\s*\(\s*\w+!\s*\(\s*\w+\s*-\s*\w+\s*\)!\s*\)/g,
    words: " combination unordered ",
  },
  {
    pattern:
      /\bmath\.perm\b|\bperm\(|\bpermutations\(|\b[P]\(\s*\w+\s*,\s*\w+\s*\)|\b\w?P[rk]\b|\w+!\s*\/\s*\(\s*\w+\s*-\s*\w+\s*\)!/g,
    words: " permutation ordered ",
  },
  { pattern: /\/\s*\w+!/g, words: " unordered divide " },
  { pattern: /\b2\s*\*\s*len\(/g, words: " always two each ( " },
  { pattern: /(?<![-\d])\b(\d+)\s+and\s+\1\b(?![-\d])/g, words: " same root twice " },
  { pattern: /\{\s*0\s*,\s*1\s*,\s*(?:\.\.\.|…)\s*,\s*m\s*-\s*1\s*\}/g, words: " nonnegative residue " },
  {
    pattern: /\b(?:D|d|Δ|disc\w*)\s*>=\s*0\s*(?:gives|→|:|=)\s*2\b/g,
    words: " count two double ",
  },
  { pattern: /\b\d+\.\d{2}\s+for\s+\d+\s*\/\s*\d+/g, words: " round intermediate " },
  {
    pattern: /\b(\w+)\s*\+\s*\1\s*\*\s*\w+\s*\/\s*100\s*-\s*\1\s*\*\s*\w+\s*\/\s*100/g,
    words: " net change original ",
  },
  { pattern: /-\s*\(\s*\|\s*\w+\s*\|\s*mod/g, words: " keep sign mod " },
  {
    pattern:
      /\{\s*(\w+)\s*,\s*(\w+)\s*\}\s*and\s*\{\s*\2\s*,\s*\1\s*\}\s*(?:are|as)\s*(?:different|distinct)/g,
    words: " order matters ordered ",
  },
  {
    pattern: /\bP\(\s*\w+\s+and\s+\w+\s*\)\s*=\s*P\(\s*\w+\s*\)\s*[·*×]?\s*P\(\s*\w+\s*\)/g,
    words: " independent ",
  },
  {
    pattern: /\b(\w+\s*\/\s*\w+)\s*(?:by|×|\*|·)\s*\1\b/g,
    words: " same probability each draw independent ",
  },
  // Falling products: 52·51·50 counts ordered deals; n(n - 1)/2 unordered pairs.
  {
    pattern: /\b(\d+)\s*[·*×]\s*(\d+)(?:\s*[·*×]\s*\d+)*/g,
    words: (m) => (Number(m[2]) === Number(m[1]) - 1 ? " permutation ordered " : m[0]!),
  },
  { pattern: /\bn\s*\(\s*n\s*-\s*1\s*\)\s*\/\s*2/g, words: " combination unordered " },
  { pattern: /\bn\s*\(\s*n\s*-\s*1\s*\)/g, words: " permutation ordered " },
  // Hypergeometric and chained fractions: 4/52 · 3/51 takes the first draw out.
  {
    pattern: /\b(?:C|comb|math\.comb)\([^)]*\)\s*\/\s*(?:C|comb|math\.comb)\(/g,
    words: " hypergeometric one fewer (",
  },
  {
    pattern: /\b(\d+)\s*\/\s*(\d+)\s*[·*×]\s*(\d+)\s*\/\s*(\d+)/g,
    words: (m) => {
      const [a, b, c, d] = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
      if (c === a - 1 && d === b - 1) return " one fewer remaining without replacement ";
      if (c === a && d === b) return " same probability each draw independent ";
      return m[0]!;
    },
  },
  // Draws: (r/n)^2 treats draws as independent; (r-1)/(n-1) takes the first draw out.
  {
    pattern:
      /\(\s*\w+\s*\/\s*\w+\s*\)\s*(?:\*\*|\^)\s*(?:\d+|[a-z])\b|\bFraction\(\s*\w+\s*,\s*\w+\s*\)\s*\*\*\s*(?:\d+|[a-z])\b/g,
    words: " same probability each draw independent replacement ",
  },
  {
    pattern:
      /\(\s*\w+\s*-\s*1\s*\)\s*\/\s*\(\s*\w+\s*-\s*1\s*\)|\bFraction\(\s*\w+\s*-\s*1\s*,\s*\w+\s*-\s*1\s*\)/g,
    words: " one fewer remaining without replacement ",
  },
  // Exact arithmetic.
  { pattern: /\bDecimal\(\s*['"]0\.0*1['"]\s*\)/g, words: " cent " },
  { pattern: /\bFraction\b|\bfractions\b|\bsympy\.Rational\b|\bRational\b/g, words: " fraction " },
  { pattern: /\bDecimal\b/g, words: " decimal type " },
  { pattern: /\bround\(/g, words: " round ( " },
  // Units written as symbols.
  { pattern: /\bkm²|\bkm\^2|\bkm2\b|\bsq\.?\s*km\b/gi, words: " square kilometre unit " },
  { pattern: /\bha\b/g, words: " hectare " },
  { pattern: /(?<=\d)\s*(?:g|kg|mg)\b/g, words: " mass unit " },
  { pattern: /(?<=\d)\s*(?:h|hr|hrs|min|mins)\b/g, words: " time unit " },
  { pattern: /[×x]\s*(?:100|1000|60)\b|\*\s*(?:100|1000|60)\b/g, words: " convert multiply " },
  {
    pattern: /\bmax\([^)]*(?:date|published|as_of|year|updated|time)/gi,
    words: " use most recent date max(",
  },
  { pattern: /\bafter:/g, words: " recent " },
  // "official page > aggregator": a ranking between words.
  { pattern: /(?<=[A-Za-z)])\s+>\s+(?=[A-Za-z])/g, words: " beats " },
  // Percent signs after numbers.
  { pattern: /(?<=\d)\s*%/g, words: " percent " },
];

const subscripts = "₀₁₂₃₄₅₆₇₈₉";

/**
 * Typographic forms to their ASCII spelling: − to -, ≤ to <=, ² to ^2, m₁ to m1; arrows (⇒, =>, ->) to one "→", which
 * the reader takes as "in this case …" (what stands before it is the situation, see read-lesson.ts).
 */
function asciiMath(text: string): string {
  return (
    text
      .replace(/[\u2212\u2012\u2013](?=\s*[\w(|√])/g, "-")
      .replace(/[≤⩽]/g, "<=")
      .replace(/[≥⩾]/g, ">=")
      // "Mean of means ≠ overall mean": the equation is denied, so the negation covers its left side too.
      .replace(/(^|[,:;.!?(—]\s*)([^,:;.!?()—≠]*?)\s*≠\s*/g, "$1not $2 is ")
      .replace(/\s*≠\s*/g, " is not ")
      .replace(/²/g, "^2")
      .replace(/³/g, "^3")
      .replace(/[₀-₉]/g, (digit) => String(subscripts.indexOf(digit)))
      .replace(/\s*(?:→|⇒|=>|->)\s*/g, " → ")
      .replace(/…/g, "...")
  );
}

/**
 * An `if` that is code is no condition of the lesson: a comprehension's filter (`for x in range(a, b + 1) if x % k
 * == 0`), a conditional expression (`x if x >= 0 else x + m`) or any `if` / `when` in a backtick span. Spelled as a
 * word the reader does not split on, so the clause stays the instruction it is part of.
 */
function codeConditions(text: string): string {
  return text
    .replace(/`[^`]*`/g, (span) => span.replace(/\b(?:if|when|unless)\b/gi, "filtered"))
    .replace(/(\bfor\s+[A-Za-z_]\w*\s+in\s+[A-Za-z_][\w.]*\([^()]*\)\s+)if\b/g, "$1filtered")
    .replace(/(\b[\w.()+\-*/\s]{1,30}?\s)if(\s+[^,;:]{1,40}?\s+else\b)/g, "$1filtered$2");
}

/** The text with every notation and code form the policy recognises spelled out in words. */
export function spellOutNotation(text: string): string {
  let out = asciiMath(codeConditions(text));
  for (const rewrite of rewrites) {
    out = out.replace(rewrite.pattern, (...args: unknown[]) => {
      if (typeof rewrite.words === "string") return rewrite.words;
      const match = args.slice(0, -2) as string[];
      return rewrite.words(Object.assign(match, { index: 0, input: out }) as unknown as RegExpExecArray);
    });
  }
  return out;
}
