import { readBraced } from "./extract-answer.js";

/** An answer reduced to plain LaTeX, with what was stripped from it remembered. */
export interface NormalizedAnswer {
  text: string;
  /** It carried a percent sign (or the word): 25% may mean 25 or 0.25. */
  percent: boolean;
  /** It carried a degree sign (or the word). */
  degrees: boolean;
}

const unicode: [RegExp, string][] = [
  [/[\u2212\u2012\u2013\u2014\uFE63\uFF0D]/g, "-"],
  [/\u00D7/g, "\\times "],
  [/[\u00B7\u22C5]/g, "\\cdot "],
  [/\u00F7/g, "/"],
  [/\u03C0/g, "\\pi "],
  [/\u221A/g, "\\sqrt"],
  [/\u221B/g, "\\sqrt[3]"],
  [/\u221E/g, "\\infty "],
  [/\u2264/g, "\\le "],
  [/\u2265/g, "\\ge "],
  [/\u2260/g, "\\ne "],
  [/\u222A/g, "\\cup "],
  [/\u2229/g, "\\cap "],
  [/\u2208/g, "\\in "],
  [/\u2205/g, "\\emptyset "],
  [/\u00B1/g, "\\pm "],
  [/\u2213/g, "\\mp "],
  [/\u00B0/g, "^\\circ"],
  [/\u00BD/g, "\\frac{1}{2}"],
  [/\u2153/g, "\\frac{1}{3}"],
  [/\u2154/g, "\\frac{2}{3}"],
  [/\u00BC/g, "\\frac{1}{4}"],
  [/\u00BE/g, "\\frac{3}{4}"],
  [/\u00B2/g, "^2"],
  [/\u00B3/g, "^3"],
  [/[\u00A0\u2009\u202F\u2002\u2003]/g, " "],
];

// Commands whose argument is the visible text: `\text{ cm}`, `\textbf{(C)}`, `\mathrm{e}`.
const textCommands =
  /\\(?:text|textbf|textit|textrm|textsf|texttt|textup|textnormal|mathrm|mathbf|mathit|mathsf|mathtt|boldsymbol|bm|mbox|hbox|operatorname|emph)\s*(?=\{)/;

// Words that are mathematics, not units: never stripped from the end of an answer.
const mathWords = new Set([
  "or",
  "and",
  "pi",
  "sqrt",
  "sin",
  "cos",
  "tan",
  "sec",
  "csc",
  "cot",
  "log",
  "ln",
  "exp",
  "mod",
  "infty",
  "infinity",
  "inf",
  "cup",
  "cap",
  "le",
  "ge",
  "circ",
]);

/**
 * Reduces an extracted answer to comparable LaTeX, the way careful graders do before comparing: unicode and display
 * wrappers out, `\dfrac` -> `\frac`, text wrappers unwrapped, units, currency, thousands separators, percent and
 * degree signs removed (the last two remembered), mixed numbers and e-notation rewritten.
 */
export function normalizeAnswer(raw: string): NormalizedAnswer {
  let text = raw;
  for (const [pattern, replacement] of unicode) text = text.replace(pattern, replacement);

  // Matrix row breaks `\\` become `\cr` first, so that the spacing commands below cannot eat half of one.
  text = text.replace(/\\\\/g, " \\cr ");
  text = text.replace(/\\\$/g, " ").replace(/\\%/g, "%");
  text = text.replace(/\$/g, " ").replace(/\\[()]/g, " ");
  text = text.replace(/\\\[|\\\]/g, " ");
  text = text.replace(/\\(?:left|right|middle|[bB]igg?[lr]?)(?![a-zA-Z])\s*\.?/g, "");
  text = text.replace(/\\(?:displaystyle|textstyle|scriptstyle|limits|nolimits)(?![a-zA-Z])/g, "");

  // Thousands separators written as spacing or {,} between digit groups: 1\,000\,000, 1{,}000.
  text = text.replace(/(\d)(?:\\[,;:! ]|\{,\}|\s)(?=\d{3}(?!\d))/g, "$1");
  text = text.replace(/\\[,;:! >]|\\q?quad(?![a-zA-Z])|\\enspace|~/g, " ");

  text = text.replace(/\\mathbb\s*\{?\s*R\s*\}?/g, "(-\\infty, \\infty)");
  text = unwrapTextCommands(text);

  text = text.replace(/\\[dtc]frac(?![a-zA-Z])/g, "\\frac").replace(/\\[dt]binom(?![a-zA-Z])/g, "\\binom");
  text = text
    .replace(/\\(?:leqslant|leq|le)(?![a-zA-Z])|<=/g, "\\le ")
    .replace(/\\(?:geqslant|geq|ge)(?![a-zA-Z])|>=/g, "\\ge ")
    .replace(/\\lt(?![a-zA-Z])/g, "<")
    .replace(/\\gt(?![a-zA-Z])/g, ">")
    .replace(/\\(?:varnothing|emptyset)(?![a-zA-Z])/g, "\\emptyset ")
    .replace(/\\(?:neq|ne)(?![a-zA-Z])/g, "\\ne ");

  let degrees = false;
  text = text.replace(/\^\s*\{?\s*\\circ\s*\}?|\\degree(?![a-zA-Z])|\\circ(?![a-zA-Z])/g, () => {
    degrees = true;
    return " ";
  });
  text = text.replace(/\b(?:degrees?|deg)\b\.?/gi, () => {
    degrees = true;
    return " ";
  });
  let percent = false;
  text = text.replace(/%|\bper\s*cent\b|\bpercent\b/gi, () => {
    percent = true;
    return " ";
  });

  // "≈ 3.14", "x \approx 3", "approximately 3" all state a value.
  text = text.replace(/\\(?:approx|simeq|sim)(?![a-zA-Z])/g, "=");
  text = text.replace(/\b(?:approximately|approx\.?|about|roughly)\s+/gi, "");
  text = text.replace(/\b(?:infinity|inf)\b/gi, "\\infty ");
  text = text.replace(/\+\s*\\infty/g, "\\infty");

  text = text.replace(/\s+/g, " ").trim();
  text = stripUnits(text);
  text = text.replace(/^[=:]\s*/, "");
  text = text
    .replace(/[.;,]+$/, "")
    .replace(/\s+/g, " ")
    .trim();

  // 1,000,000 -> 1000000 (not "1, 000": a comma followed by a space separates items).
  text = text.replace(/(?<![\d.])\d{1,3}(?:,\d{3})+(?![\d])/g, (digits) => digits.replace(/,/g, ""));
  // 3\frac{1}{2} is a mixed number in an answer, never "3 times a half".
  text = text.replace(
    /^(-?)(\d+)\s*\\frac\{(\d+)\}\{(\d+)\}$/,
    (_match, sign, whole, numerator, denominator) => {
      const value = Number(whole) * Number(denominator) + Number(numerator);
      return `${sign}\\frac{${value}}{${denominator}}`;
    },
  );
  // 1.5e3 -> 1.5\times 10^{3}: otherwise "e" would read as Euler's number.
  text = text.replace(
    /(?<![a-zA-Z\\])(\d+(?:\.\d+)?)[eE]([+-]?\d+)(?![a-zA-Z\d])/g,
    (_match, mantissa, exponent) => `${mantissa}\\times 10^{${exponent}}`,
  );
  // 1011_2 is 1011 written in base 2: graders compare the digits.
  text = text.replace(/^(\d+)_\{?(\d+)\}?$/, "$1");
  return { text, percent, degrees };
}

function unwrapTextCommands(input: string): string {
  let text = input;
  for (let guard = 0; guard < 50; guard++) {
    const match = textCommands.exec(text);
    if (!match) break;
    const open = match.index + match[0].length;
    const content = readBraced(text, open);
    if (content === null) {
      text = text.slice(0, match.index) + text.slice(open + 1);
      continue;
    }
    text = `${text.slice(0, match.index)}${content}${text.slice(open + content.length + 2)}`;
  }
  return text;
}

/** Drops trailing unit words ("cm", "square units", "dollars", "cm^2") that follow a number. */
function stripUnits(input: string): string {
  let text = input;
  for (let guard = 0; guard < 4; guard++) {
    const match = /\s*\b([a-zA-Z]{2,})\.?(?:\s*\^\s*\{?[23]\}?)?$/.exec(text);
    if (!match) break;
    const word = match[1]!.toLowerCase();
    const before = text.slice(0, match.index);
    if (mathWords.has(word) || /\\$/.test(before) || !/\d/.test(before)) break;
    // Only when the word follows a value ("5 cm", "\frac{1}{2} inch", "(C) 12 apples"), not inside an expression.
    if (!/[\d})]\s*$|[\d})]\s*(?:square|cubic|sq)?\s*$/.test(before)) break;
    text = before.trimEnd();
  }
  return text.replace(/\b(?:per|a)\s*$/i, "").trimEnd();
}
