/**
 * Reading Python source the way a reviewer skims it: comments and imports dropped, whitespace collapsed, one
 * statement per line. Comments are prose and prose is not evidence (a program's comment can say anything), so the
 * critic never reads them.
 */

/** A line without its trailing `#` comment (a `#` inside a string literal stays). */
export function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote !== null) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "#") return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

const importLine =
  /^(?:import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*|from\s+[\w.]+\s+import\s+.+)$/;

/** The statements of a program that compute something: no blank lines, comments or imports. */
export function keyLines(code: string): string[] {
  const out: string[] = [];
  for (const raw of code.split(/\r?\n/)) {
    const line = stripComment(raw).trim().replace(/\s+/g, " ");
    if (line === "" || importLine.test(line)) continue;
    out.push(line);
  }
  return out;
}

/** Separator of code lines inside a one-line summary step. */
export const lineSeparator = "; ";

export function joinCodeLines(lines: readonly string[]): string {
  return lines.join(lineSeparator);
}

export function splitCodeLines(text: string): string[] {
  return text
    .split(/;\s+/)
    .map((line) => line.trim())
    .filter(Boolean);
}

const numberLiteral = /(?<![\w.])\d+(?:\.\d+)?(?![\w.])/g;
const letters = ["a", "b", "c", "d", "k", "m", "n", "p", "q", "r", "s", "u", "w", "z", "e", "f", "g", "h"];

/**
 * Numbers replaced by letters, consistently: the same number gets the same letter across every text abstracted
 * with one `names` map, so `range(14 + 1, 91)` and `range(14, 91 + 1)` become `range(a + 1, b)` and
 * `range(a, b + 1)`. Small constants (0, 1, 2) carry meaning in code and stay.
 */
export function abstractNumbers(
  text: string,
  names: Map<string, string> = new Map(),
  reserved: ReadonlySet<string> = new Set(text.match(/[A-Za-z_]\w*/g) ?? []),
): string {
  return text.replace(numberLiteral, (number) => {
    if (number === "0" || number === "1" || number === "2") return number;
    let name = names.get(number);
    if (!name) {
      const taken = new Set(names.values());
      name = letters.find((letter) => !taken.has(letter) && !reserved.has(letter)) ?? `x${names.size}`;
      names.set(number, name);
    }
    return name;
  });
}

// Words whose meaning a reader knows: keywords, builtins and the standard modules' names. Any other identifier is
// the program's own name for something, and two programs naming a thing differently still do the same thing.
const knownNames = new Set(
  (
    "and as assert break class continue def del elif else except False finally for from global if import in is " +
    "lambda None nonlocal not or pass raise return True try while with yield abs all any bin bool dict divmod " +
    "enumerate filter float int len list map max min print range reversed round set sorted str sum tuple zip " +
    "math cmath fmod floor ceil sqrt isqrt comb perm factorial gcd lcm pi inf prod fsum Fraction Decimal " +
    "fractions decimal quantize ROUND_HALF_UP date datetime timedelta days statistics mean median numpy np roots " +
    "real imag itertools combinations permutations product"
  ).split(" "),
);

/** The structure of a line: the program's own names as v (to tell a real change from a renaming). */
export function lineShape(line: string): string {
  return line.replace(/[A-Za-z_]\w*/g, (word) => (knownNames.has(word) ? word : "v")).replace(/\s+/g, "");
}

/** Tokens of a line for similarity: names, numbers and operators. */
export function codeTokens(line: string): string[] {
  return line.match(/[A-Za-z_]\w*|\d+(?:\.\d+)?|\*\*|\/\/|[<>=!]=|[^\s\w]/g) ?? [];
}

/** Arguments of every call of `name(...)` in a text, split at top-level commas. */
export function callArguments(text: string, name: string): string[][] {
  const out: string[][] = [];
  const pattern = new RegExp(`(?<![\\w.])${name.replace(/\./g, "\\.")}\\s*\\(`, "g");
  for (const m of text.matchAll(pattern)) {
    let depth = 0;
    let current = "";
    const args: string[] = [];
    for (let i = m.index + m[0].length; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === "(" || ch === "[" || ch === "{") depth++;
      if (ch === ")" || ch === "]" || ch === "}") {
        if (depth === 0) {
          args.push(current.trim());
          out.push(args);
          break;
        }
        depth--;
      }
      if (ch === "," && depth === 0) {
        args.push(current.trim());
        current = "";
      } else current += ch;
    }
  }
  return out;
}
