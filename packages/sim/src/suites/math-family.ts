import type { Pitfall } from "../pitfalls/pitfall.js";

/**
 * A family of math tasks: one question template with numbers varied by seed, its hidden pitfalls, and what the
 * simulated policy does with it. The question text carries every parameter, so the server recognises a task by
 * parsing it (as a model would read it) and any suite generated anywhere is understood.
 */
export interface MathFamily<P = unknown> {
  id: string;
  /** Pitfalls of the family; the first is always active in generated instances. */
  pitfalls: readonly Pitfall[];
  generate(random: () => number): P;
  question(params: P, variant: number): string;
  parse(question: string): P | null;
  /** Python the policy writes; `fallen` holds the ids of the pitfalls it fell into. */
  code(params: P, fallen: ReadonlySet<string>): string;
  /** What that program prints (the same computation in TypeScript). */
  evaluate(params: P, fallen: ReadonlySet<string>): string;
  /** One sentence on what it computes, in the words a solver would use. */
  describe(params: P): string;
  /** Pitfalls that must change the answer for an instance to be kept (default: all). */
  requiredActive?: readonly string[];
}

export const noneFallen: ReadonlySet<string> = new Set();

export function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** Python's str(Fraction(p, q)): "p/q" reduced, or "p" when whole. */
export function fractionText(numerator: bigint, denominator: bigint): string {
  if (denominator === 0n) throw new RangeError("zero denominator");
  let p = numerator;
  let q = denominator;
  if (q < 0n) {
    p = -p;
    q = -q;
  }
  const g = gcd(p, q) || 1n;
  p /= g;
  q /= g;
  return q === 1n ? `${p}` : `${p}/${q}`;
}

/** floor(p / q + 1/2) for q > 0: round half up, as the policy's Python does with Fraction. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  const p = 2n * numerator + denominator;
  const q = 2n * denominator;
  const floor = p / q;
  return p % q !== 0n && p < 0n ? floor - 1n : floor;
}

export function indent(code: string, spaces: number): string {
  const pad = " ".repeat(spaces);
  return code
    .split("\n")
    .map((line) => (line === "" ? line : pad + line))
    .join("\n");
}
