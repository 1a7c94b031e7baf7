import { type Task, TfgrpoError } from "@tfgrpo/protocol";
import { SIMULATED_LABEL } from "../simulated-label.js";
import { createWorld } from "../world.js";
import { type FamilySplit, generateMathInstances, type SuiteSplit, suiteSplits } from "./math.js";
import { generateWebInstances } from "./web.js";

export interface CreateSuiteOptions {
  domain: "math" | "web";
  /** World seed: a sim server with the same seed (or world) recognises every task. */
  seed: number;
  size: number;
  split: SuiteSplit;
}

/**
 * Synthetic tasks with ground truth. Train, val and test of one seed are disjoint instances of the same families,
 * so lessons learned on train can generalise to held-out tasks; the math test split also has held-out families
 * (`meta.familySplit: "out-of-family"`, the others "in-family"). Tasks are labelled as simulated in `meta`.
 */
export function createSuite(options: CreateSuiteOptions): Task[] {
  const { domain, seed, size, split } = options;
  if (!Number.isInteger(size) || size < 1) {
    throw new TfgrpoError("invalid_input", `createSuite: size must be a positive integer, got ${size}`, {
      details: { field: "size", value: size },
    });
  }
  if (!suiteSplits.includes(split)) {
    throw new TfgrpoError("invalid_input", `createSuite: split must be train, val or test, got "${split}"`, {
      details: { field: "split", value: split },
    });
  }
  let instances: {
    question: string;
    answer: string;
    family: { id: string };
    activePitfalls: { id: string }[];
    /** Math only: whether train and validation share the task's family (see `FamilySplit`). */
    familySplit?: FamilySplit;
  }[];
  if (domain === "math") instances = generateMathInstances(seed, split, size);
  else if (domain === "web") {
    try {
      instances = generateWebInstances(createWorld(seed).corpus, split, size);
    } catch (error) {
      throw new TfgrpoError("invalid_input", `createSuite: ${(error as Error).message}`, {
        details: { field: "size", value: size, domain, split, seed },
      });
    }
  } else {
    throw new TfgrpoError(
      "invalid_input",
      `createSuite: domain must be math or web, got "${String(domain)}"`,
      {
        details: { field: "domain", value: domain },
      },
    );
  }
  return instances.map((instance, index) => ({
    id: `sim-${domain}-${split}-s${seed}-${String(index + 1).padStart(4, "0")}`,
    domain,
    question: instance.question,
    answer: instance.answer,
    meta: {
      simulated: true,
      label: SIMULATED_LABEL,
      family: instance.family.id,
      pitfalls: instance.activePitfalls.map((p) => p.id),
      worldSeed: seed,
      split,
      ...(instance.familySplit ? { familySplit: instance.familySplit } : {}),
    },
  }));
}
