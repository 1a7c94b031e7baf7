import { createRandom, hashParts } from "../hash.js";
import type { Pitfall } from "../pitfalls/pitfall.js";
import { mathFamilies } from "./math-families.js";
import { type MathFamily, noneFallen } from "./math-family.js";
import { isHeldOutMathFamily, mathHeldOutFamilies } from "./math-held-out-families.js";

export type SuiteSplit = "train" | "val" | "test";
export const suiteSplits: readonly SuiteSplit[] = ["train", "val", "test"];

/**
 * Whether a task's family is one training and validation also draw from (`in-family`), or a held-out family only the
 * test split has (`out-of-family`): lessons learned on train can only help the first kind.
 */
export type FamilySplit = "in-family" | "out-of-family";

/** A math task the sim understands: its family, parameters, answer and the pitfalls that change the answer. */
export interface MathInstance {
  domain: "math";
  family: MathFamily;
  params: unknown;
  question: string;
  answer: string;
  /** Pitfalls whose mistake changes the answer in this instance. */
  activePitfalls: Pitfall[];
  familySplit: FamilySplit;
}

function instanceOf(family: MathFamily, params: unknown, question: string): MathInstance {
  const answer = family.evaluate(params, noneFallen);
  const activePitfalls = family.pitfalls.filter((p) => family.evaluate(params, new Set([p.id])) !== answer);
  const familySplit: FamilySplit = isHeldOutMathFamily(family.id) ? "out-of-family" : "in-family";
  return { domain: "math", family, params, question, answer, activePitfalls, familySplit };
}

/** Reads a question the way the policy does: any question a math family wrote is recognised, others give null. */
export function recognizeMathQuestion(question: string): MathInstance | null {
  const text = question.trim();
  for (const family of [...mathFamilies, ...mathHeldOutFamilies]) {
    const params = family.parse(text);
    if (params !== null) return instanceOf(family, params, text);
  }
  return null;
}

/**
 * Which split a question belongs to: a hash of (seed, question). Splits of one seed are therefore disjoint by
 * construction (a question can only ever land in one), while all draw from the same families.
 */
export function splitOfQuestion(seed: number, question: string): SuiteSplit {
  return suiteSplits[hashParts("split", seed, question) % 3]!;
}

/**
 * `size` distinct instances of `split`, families interleaved so every family is represented. The test split also
 * draws from the held-out families (2 of its 9 families), which train and validation never contain.
 */
export function generateMathInstances(seed: number, split: SuiteSplit, size: number): MathInstance[] {
  const random = createRandom(hashParts("math-suite", seed, split));
  const order = split === "test" ? [...mathFamilies, ...mathHeldOutFamilies] : [...mathFamilies];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const seen = new Set<string>();
  const out: MathInstance[] = [];
  for (let index = 0; out.length < size; index++) {
    const family = order[index % order.length]!;
    for (let attempt = 0; attempt < 10_000; attempt++) {
      const params = family.generate(random);
      const question = family.question(params, Math.floor(random() * 2));
      if (seen.has(question) || splitOfQuestion(seed, question) !== split) continue;
      const instance = instanceOf(family, params, question);
      const required = family.requiredActive ?? family.pitfalls.map((p) => p.id);
      if (!required.every((id) => instance.activePitfalls.some((p) => p.id === id))) continue;
      seen.add(question);
      out.push(instance);
      break;
    }
  }
  return out;
}
