import type { Pitfall } from "./pitfall.js";

// What the policy knows of each trap of the code-repair world (notions of policy/repair-lexicon.ts). Each applies to
// a program only when its code has the feature the trap is about (policy/repair-agent.ts).

const repair = (id: string, title: string, reading: Pitfall["reading"]): Pitfall => ({
  id,
  domain: "repair",
  title,
  reading,
});

export const patchSymptom = repair(
  "repair-symptom",
  "special-casing the failing inputs instead of the defect",
  {
    topic: ["SYMPTOM"],
    context: ["test", "input", "bug", "defect", "repair", "program"],
    helpful: ["EXCLUDE SYMPTOM", "SKIPPING SYMPTOM", "USE CAUSE", "CAUSE"],
    harmful: ["SYMPTOM", "USE SYMPTOM"],
  },
);

export const wrongLine = repair(
  "repair-wrong-line",
  "editing the line a failure surfaces on, not the defect",
  {
    topic: ["FAILLINE", "DEFECTLINE"],
    context: ["bug", "defect", "fix", "error", "traceback", "line", "program"],
    helpful: [
      "CHECK DEFECTLINE",
      "DEFECTLINE",
      "USE DEFECTLINE",
      "EXCLUDE FAILLINE",
      "?DEFECTLINE",
      "SKIPPING FAILLINE",
    ],
    harmful: ["USE FAILLINE", "?FAILLINE", "SKIPPING DEFECTLINE", "FAILLINE only"],
  },
);

export const offByOneFix = repair("repair-off-by-one", "fixing an off-by-one by always adding one", {
  topic: ["OFFBYONE"],
  context: ["index", "bound", "range", "loop", "fix", "slice"],
  helpful: [
    "DIRECTIONS",
    "CHECK DIRECTIONS",
    "CHECK OFFBYONE",
    "USE DIRECTIONS",
    "?DIRECTIONS",
    "EXCLUDE OFFBYONE",
  ],
  harmful: ["SKIPPING DIRECTIONS", "USE OFFBYONE always", "?REGARDLESS"],
});

export const operatorDirection = repair(
  "repair-operator-direction",
  "flipping a comparison the wrong way instead of changing its strictness",
  {
    topic: ["STRICT", "COMPARISON STRICT", "FLIP COMPARISON"],
    context: ["COMPARISON", "condition", "loop", "bound", "fix"],
    helpful: [
      "CHECK STRICT",
      "USE STRICT",
      "STRICT",
      "?STRICT",
      "EXCLUDE FLIP",
      "SKIPPING FLIP",
      "CHECK COMPARISON STRICT",
    ],
    harmful: ["USE FLIP", "FLIP", "?FLIP", "SKIPPING STRICT"],
  },
);

export const baseCaseMissed = repair("repair-base-case", "never considering a missing or wrong base case", {
  topic: ["BASECASE"],
  context: ["recursion", "recursive", "loop", "timeout", "never returns", "error", "empty"],
  helpful: ["CHECK BASECASE", "USE BASECASE", "BASECASE", "?BASECASE", "INCLUDE BASECASE"],
  harmful: ["SKIPPING BASECASE", "EXCLUDE BASECASE", "?REGARDLESS"],
});

export const stopAfterVisible = repair("repair-stop-visible", "stopping as soon as the visible tests pass", {
  topic: ["VISIBLE", "BEYOND"],
  context: ["test", "pass", "fix", "done", "program"],
  helpful: ["CHECK BEYOND", "USE BEYOND", "BEYOND", "?BEYOND", "CHECK VISIBLE BEYOND", "EXCLUDE STOPEARLY"],
  harmful: ["STOPEARLY", "USE STOPEARLY", "VISIBLE STOPEARLY", "SKIPPING BEYOND", "TRUST VISIBLE"],
});

export const changeOnly = repair(
  "repair-change-only",
  "only changing what is there, never adding what is missing",
  {
    topic: ["OMISSION"],
    context: ["STATEMENT", "loop", "code", "defect", "fix", "program", "edit"],
    helpful: [
      "INSERT STATEMENT",
      "INSERT OMISSION",
      "CHECK OMISSION",
      "?OMISSION",
      "EXCLUDE TWEAKONLY",
      "SKIPPING TWEAKONLY",
    ],
    harmful: ["TWEAKONLY", "USE TWEAKONLY"],
  },
);

export const repairPitfalls: readonly Pitfall[] = [
  patchSymptom,
  wrongLine,
  offByOneFix,
  operatorDirection,
  baseCaseMissed,
  stopAfterVisible,
  changeOnly,
];
