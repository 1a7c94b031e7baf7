import { createRequire } from "node:module";
import type { EvalFunction, MathJsInstance } from "mathjs";
import { latexToMathjs } from "./latex-to-mathjs.js";

// mathjs takes over a second of CPU to load. Every CLI command imports this package, most never compare answers,
// so it is loaded on first use (synchronously: verifying is synchronous).
let mathjs: Pick<MathJsInstance, "parse" | "isComplex"> | undefined;
function math(): Pick<MathJsInstance, "parse" | "isComplex"> {
  mathjs ??= createRequire(import.meta.url)("mathjs") as MathJsInstance;
  return mathjs;
}

export interface ExpressionOptions {
  /** Relative tolerance when a decimal literal is involved (default 1e-6: six significant digits). */
  decimalTolerance?: number;
  /** Relative tolerance between exact expressions, for floating-point noise only (default 1e-9). */
  exactTolerance?: number;
}

interface Compiled {
  evaluate: EvalFunction;
  symbols: string[];
}

interface ComplexValue {
  re: number;
  im: number;
}

// Points where free variables are sampled: fixed (so verdicts are repeatable), and away from 0, 1, the integers and
// the usual constants (e, pi, roots), where different expressions often happen to agree.
const samplePoints = [0.6137, 1.3791, 2.4463, 0.3259, 1.8517, 2.1173];
const minimumValidSamples = 3;
const cache = new Map<string, Compiled | null>();
const maxCacheEntries = 5000;

function compile(latex: string): Compiled | null {
  const cached = cache.get(latex);
  if (cached !== undefined) return cached;
  let compiled: Compiled | null = null;
  const converted = latexToMathjs(latex);
  if (converted) {
    try {
      compiled = { evaluate: math().parse(converted.expression).compile(), symbols: converted.symbols };
    } catch {
      compiled = null;
    }
  }
  if (cache.size >= maxCacheEntries) cache.clear();
  cache.set(latex, compiled);
  return compiled;
}

function evaluate(compiled: Compiled, scope: Record<string, number>): ComplexValue | null {
  try {
    const value: unknown = compiled.evaluate.evaluate({ ...scope });
    if (typeof value === "number") return Number.isNaN(value) ? null : { re: value, im: 0 };
    if (math().isComplex(value)) {
      const complex = value as { re: number; im: number };
      return Number.isNaN(complex.re) || Number.isNaN(complex.im) ? null : { re: complex.re, im: complex.im };
    }
    return null;
  } catch {
    return null;
  }
}

function close(a: ComplexValue, b: ComplexValue, relative: number): boolean {
  if (!Number.isFinite(a.re) || !Number.isFinite(b.re)) return a.re === b.re && Math.abs(a.im - b.im) < 1e-12;
  const scale = Math.max(Math.hypot(a.re, a.im), Math.hypot(b.re, b.im));
  return Math.hypot(a.re - b.re, a.im - b.im) <= Math.max(relative * scale, 1e-12);
}

function scopeAt(symbols: readonly string[], point: number): Record<string, number> {
  const scope: Record<string, number> = {};
  symbols.forEach((symbol, index) => {
    // Each variable gets its own value at each point, so x + 2y and 2x + y differ.
    scope[symbol] = samplePoints[(point + index * 2) % samplePoints.length]! + index * 0.37;
  });
  return scope;
}

/** Number of decimal places when the LaTeX is a plain decimal literal (`3.14` -> 2), else null. */
export function decimalPlaces(latex: string): number | null {
  const match = /^-?\d*\.(\d+)$/.exec(latex.trim());
  return match ? match[1]!.length : null;
}

export function hasDecimalLiteral(latex: string): boolean {
  return /(?:^|[^\d])\.\d|\d\.\d/.test(latex);
}

/** A constant expression's value, when it has one (used to order interval endpoints and the like). */
export function constantValue(latex: string): ComplexValue | null {
  const compiled = compile(latex);
  if (!compiled || compiled.symbols.length > 0) return null;
  return evaluate(compiled, {});
}

/**
 * Whether two LaTeX expressions are the same value. Constant expressions are evaluated (complex numbers allowed);
 * expressions with variables are compared at fixed sample points. An exact prediction against a decimal gold passes
 * when it rounds to the gold (gold 1.41, prediction sqrt 2); a decimal against anything must agree to
 * `decimalTolerance`; exact against exact to `exactTolerance`. Returns null when either side is not an expression
 * mathjs can evaluate, so the caller can fall back to comparing text.
 */
export function expressionsEquivalent(
  gold: string,
  prediction: string,
  options: ExpressionOptions = {},
): boolean | null {
  const goldCompiled = compile(gold);
  const predictionCompiled = compile(prediction);
  if (!goldCompiled || !predictionCompiled) return null;
  const decimals = decimalPlaces(gold);
  const predictionIsDecimal = hasDecimalLiteral(prediction);
  const tolerance =
    decimals !== null || predictionIsDecimal
      ? (options.decimalTolerance ?? 1e-6)
      : (options.exactTolerance ?? 1e-9);
  const symbols = [...new Set([...goldCompiled.symbols, ...predictionCompiled.symbols])].sort();

  if (symbols.length === 0) {
    const a = evaluate(goldCompiled, {});
    const b = evaluate(predictionCompiled, {});
    if (!a || !b) return false;
    if (decimals !== null && !predictionIsDecimal && Number.isFinite(b.re)) {
      const halfUnit = 0.5 * 10 ** -decimals;
      return Math.abs(b.im) < 1e-12 && Math.abs(a.re - b.re) <= halfUnit * (1 + 1e-9);
    }
    return close(a, b, tolerance);
  }

  let valid = 0;
  for (let point = 0; point < samplePoints.length; point++) {
    const scope = scopeAt(symbols, point);
    const a = evaluate(goldCompiled, scope);
    const b = evaluate(predictionCompiled, scope);
    if (!a || !b) continue;
    if (!close(a, b, tolerance)) return false;
    valid++;
  }
  return valid >= minimumValidSamples;
}

/**
 * Whether two equations describe the same relation: `lhs - rhs` of one is a constant non-zero multiple of the
 * other's at every sample point (`x^2+y^2=25` and `x^2+y^2-25=0`, or `2y = 4x + 6` and `y = 2x + 3`).
 */
export function equationsEquivalent(
  gold: { lhs: string; rhs: string },
  prediction: { lhs: string; rhs: string },
  options: ExpressionOptions = {},
): boolean | null {
  const a = compile(`(${gold.lhs})-(${gold.rhs})`);
  const b = compile(`(${prediction.lhs})-(${prediction.rhs})`);
  if (!a || !b) return null;
  const tolerance = options.exactTolerance ?? 1e-9;
  const symbols = [...new Set([...a.symbols, ...b.symbols])].sort();
  let ratio: ComplexValue | null = null;
  let valid = 0;
  for (let point = 0; point < samplePoints.length; point++) {
    const scope = scopeAt(symbols, point);
    const u = evaluate(a, scope);
    const v = evaluate(b, scope);
    if (!u || !v || !Number.isFinite(u.re) || !Number.isFinite(v.re)) continue;
    const uZero = Math.hypot(u.re, u.im) < 1e-12;
    const vZero = Math.hypot(v.re, v.im) < 1e-12;
    if (uZero !== vZero) return false;
    valid++;
    if (uZero) continue;
    const denominator = v.re * v.re + v.im * v.im;
    const current = {
      re: (u.re * v.re + u.im * v.im) / denominator,
      im: (u.im * v.re - u.re * v.im) / denominator,
    };
    if (ratio === null) ratio = current;
    else if (!close(ratio, current, tolerance * 1000)) return false;
  }
  return valid >= minimumValidSamples;
}
