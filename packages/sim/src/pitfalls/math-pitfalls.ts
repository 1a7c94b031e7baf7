import type { Pitfall } from "./pitfall.js";

// What the policy knows of each trap: the notions that name it and the actions that avoid or cause it
// (notions of policy/lexicon.ts; cues explained in policy/lesson-reading-spec.ts).

export const rangeEndpoints: Pitfall = {
  id: "range-endpoints",
  domain: "math",
  title: "exclusive endpoints in a closed range",
  reading: {
    topic: [
      "ENDPOINT COUNT",
      "ENDPOINT RANGE",
      "ENDPOINT DAY",
      "ENDPOINT MULTIPLE",
      "CLOSED RANGE",
      "CLOSED COUNT",
      "CLOSED DAY",
      "OPENRANGE",
      "PLUSONE COUNT",
    ],
    context: ["COUNT", "RANGE", "DAY", "MULTIPLE", "CLOSED"],
    helpful: ["INCLUDE ENDPOINT", "PLUSONE", "?INCLUDE"],
    harmful: ["EXCLUDE ENDPOINT", "OPENRANGE", "SKIPPING ENDPOINT", "SUBTRACTONLY"],
  },
};

export const boundedSegment: Pitfall = {
  id: "bounded-segment",
  domain: "math",
  title: "intersection on the extension of a segment",
  reading: {
    topic: ["SEGMENT", "EXTENSION INTERSECT"],
    context: ["INTERSECT", "PARAMETER"],
    helpful: [
      "CHECK WITHIN",
      "WITHIN SEGMENT",
      "WITHIN ENDPOINT",
      "EXCLUDE EXTENSION",
      "CHECK SEGMENT",
      "CHECK PARAMETER",
      "CHECK ENDPOINT",
      "?WITHIN",
      "?RESTRICT",
    ],
    harmful: [
      "INCLUDE EXTENSION",
      "COUNT EXTENSION",
      "USE EXTENSION",
      "INTERSECT EXTENSION",
      "SKIPPING ENDPOINT",
    ],
  },
};

export const discriminant: Pitfall = {
  id: "discriminant",
  domain: "math",
  title: "complex roots counted as real",
  reading: {
    topic: ["DISCRIMINANT", "COMPLEX ROOT", "REAL ROOT"],
    context: ["ROOT", "QUADRATIC", "REAL"],
    helpful: [
      "CHECK DISCRIMINANT",
      "CHECK REAL",
      "CHECK COMPLEX",
      "EXCLUDE COMPLEX",
      "EXCLUDE ROOT",
      "EXCLUDE QUADRATIC",
      "SKIPPING COMPLEX",
      "REALONLY",
      "~DISCRIMINANT",
    ],
    harmful: ["INCLUDE COMPLEX", "COUNT COMPLEX", "SKIPPING DISCRIMINANT", "ALLROOTS", "?REGARDLESS"],
  },
};

export const repeatedRoot: Pitfall = {
  id: "repeated-root",
  domain: "math",
  title: "double root counted twice",
  reading: {
    topic: ["DOUBLE ROOT", "DOUBLE DISTINCT", "DOUBLE COUNT", "DISTINCT ROOT"],
    context: ["QUADRATIC", "DOUBLE", "ROOT", "DISTINCT"],
    helpful: ["DISTINCT DOUBLE", "EXCLUDE TWICE", "SKIPPING DOUBLE", "?DISTINCT"],
    harmful: ["TWICE DOUBLE", "TWICE ROOT", "COUNT TWICE"],
  },
};

export const intermediateRounding: Pitfall = {
  id: "intermediate-rounding",
  domain: "math",
  title: "rounding intermediate values",
  reading: {
    topic: ["ROUND", "EXACT INTERMEDIATE", "EXACT END", "EXACT PERCENT", "EXACT price", "EXACT money"],
    context: ["INTERMEDIATE", "END", "EXACT", "PERCENT", "price", "cent", "money", "step"],
    helpful: ["ROUND END", "EXACT INTERMEDIATE", "?EXACT", "SKIPPING ROUND", "EXCLUDE ROUND"],
    harmful: ["ROUND INTERMEDIATE"],
  },
};

export const successivePercentBase: Pitfall = {
  id: "successive-percent-base",
  domain: "math",
  title: "second percentage applied to the original value",
  reading: {
    topic: [
      "PERCENT SUCCESSIVE",
      "PERCENT ORIGINAL",
      "PERCENT UPDATED",
      "PERCENT MULTIPLY",
      "NETTING PERCENT",
    ],
    context: ["PERCENT", "price"],
    helpful: ["USE UPDATED", "MULTIPLY SUCCESSIVE", "MULTIPLY PERCENT", "?MULTIPLY", "UPDATED PERCENT"],
    harmful: ["USE ORIGINAL", "ORIGINAL PERCENT", "NETTING"],
  },
};

export const negativeModulo: Pitfall = {
  id: "negative-modulo",
  domain: "math",
  title: "negative remainder from truncating division",
  reading: {
    topic: ["MOD NEGATIVE", "MOD NONNEG", "SIGNKEEP", "MOD TRUNCATE", "NEGREM"],
    context: ["MOD"],
    helpful: ["NONNEG"],
    harmful: ["SIGNKEEP", "TRUNCATE", "KEEP NEGATIVE", "?NEGATIVE", "?NEGREM"],
  },
};

export const weightedMean: Pitfall = {
  id: "weighted-mean",
  domain: "math",
  title: "unweighted mean of group means",
  reading: {
    topic: ["MEAN GROUP", "MEAN WEIGHT", "MEANOFMEANS"],
    context: ["MEAN", "GROUP", "combin", "overall"],
    helpful: ["WEIGHT"],
    harmful: ["MEANOFMEANS", "SKIPPING WEIGHT", "REGARDLESS WEIGHT"],
  },
};

export const mathPitfalls: readonly Pitfall[] = [
  rangeEndpoints,
  boundedSegment,
  discriminant,
  repeatedRoot,
  intermediateRounding,
  successivePercentBase,
  negativeModulo,
  weightedMean,
];
