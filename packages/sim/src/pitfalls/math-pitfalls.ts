import type { Pitfall } from "./pitfall.js";

export const rangeEndpoints: Pitfall = {
  id: "range-endpoints",
  domain: "math",
  title: "exclusive endpoints in a closed range",
  concept: {
    groups: [
      [
        "endpoint",
        "end point",
        "both ends",
        "inclusive",
        "exclusive",
        "closed range",
        "closed interval",
        "fencepost",
        "off by one",
        "first and last",
        "first day",
        "last day",
      ],
      ["count", "how many", "number of", "tally", "enumerate", "total", "last"],
      [
        "range",
        "interval",
        "integer",
        "multiple",
        "between",
        "consecutive",
        "span",
        "day",
        "date",
        "sequence",
      ],
    ],
    required: [0, 1],
    minGroups: 2,
    helpful: [
      "include",
      "inclusive",
      "both endpoints",
      "both ends",
      "closed",
      "count both",
      "first and last",
    ],
    harmful: [
      "exclude",
      "exclusive",
      "strictly between",
      "strictly inside",
      "omit",
      "drop",
      "leave out",
      "skip",
    ],
  },
  approach: {
    fallen: "Approach: count only the values strictly between the two bounds, excluding the endpoints.",
    avoided: "Approach: the range is inclusive, so count both endpoints.",
  },
  error:
    "excluded the endpoints of an inclusive range, so the count missed the first and last values; both endpoints should have been counted",
  success: "counted the inclusive range with both endpoints included",
  lessons: [
    "When counting integers, multiples or days in a closed range, include both endpoints; check whether the bounds are inclusive before writing range(a, b + 1).",
    "For 'between A and B inclusive' counting problems, count both endpoints: the answer has B - A + 1 style terms, not B - A - 1.",
    "When a count runs from one value to another inclusive, do not exclude the endpoints; the first and last values belong to the count.",
    "When a problem counts items over an inclusive interval, keep both ends in the count and make the loop bound reach the upper endpoint.",
  ],
  opposite: [
    "When counting numbers between two bounds, exclude both endpoints, since 'between' means strictly inside the range.",
    "For counts over a range, leave out the first and last values; only values strictly between the bounds count.",
  ],
  vague: ["When counting over a range, think about the endpoints.", "Range counts: watch the endpoints."],
  merged: [
    "When counting over a closed range of integers, multiples or days, include both endpoints (b - a + 1 style counts), not only values strictly between.",
    "For inclusive ranges, count both endpoints: loops and date spans must include the first and the last value.",
  ],
};

export const boundedSegment: Pitfall = {
  id: "bounded-segment",
  domain: "math",
  title: "intersection on the extension of a segment",
  concept: {
    groups: [
      ["segment", "bounded region", "finite line"],
      ["intersection", "intersect", "cross", "meet", "hit", "touch", "solution", "point"],
      [
        "within",
        "inside",
        "lie on",
        "extension",
        "extend",
        "infinite line",
        "outside",
        "parameter",
        "0 t 1",
        "endpoint",
        "bound",
      ],
    ],
    required: [0],
    minGroups: 2,
    helpful: [
      "within",
      "inside",
      "verify",
      "check",
      "validate",
      "ensure",
      "confirm",
      "reject",
      "discard",
      "0 t 1",
    ],
    harmful: [
      "extension",
      "extended line",
      "infinite line",
      "count all intersection",
      "whole line",
      "full line",
      "no need",
      "every intersection",
      "intersection anywhere",
    ],
  },
  approach: {
    fallen:
      "Approach: intersect each line with the infinite line through the segment and count every intersection, including points on its extension.",
    avoided:
      "Approach: for each line, check that the intersection lies within the segment (0 <= t <= 1), not on its extension.",
  },
  error:
    "counted intersections with the infinite line through the segment, including points on its extension outside the bounded segment; it should have checked that each intersection lies within the segment",
  success: "checked that each intersection lies within the bounded segment",
  lessons: [
    "When a problem asks for intersections with a segment, verify each intersection point lies within the segment (parameter 0 <= t <= 1), not on its extension.",
    "For line-segment intersection questions, reject solutions outside the bounded segment; check the intersection parameter stays between 0 and 1.",
    "When solving geometry problems with intersections, validate solutions lie within bounded regions or segments, not on extensions, to avoid extraneous answers.",
  ],
  opposite: [
    "When a line meets a segment's supporting line, count the intersection even on the extension; no need to check the segment bounds.",
    "For intersection counts with segments, any intersection with the infinite line counts.",
  ],
  vague: ["When intersecting lines with segments, think about where the intersection point is."],
  merged: [
    "When intersecting lines with a bounded segment, keep only intersections within the segment (0 <= t <= 1); reject points on its extension.",
  ],
};

export const discriminant: Pitfall = {
  id: "discriminant",
  domain: "math",
  title: "complex roots counted as real",
  concept: {
    groups: [
      ["real root", "real solution", "real zero", "real"],
      ["discriminant", "b2 4ac", "complex", "imaginary", "non real", "nonreal"],
      ["quadratic", "polynomial", "equation", "root"],
    ],
    required: [1],
    minGroups: 2,
    helpful: [
      "check discriminant",
      "check",
      "verify",
      "compute discriminant",
      "sign",
      "discard complex",
      "exclude complex",
      "ignore complex",
      "drop complex",
      "only real",
      "negative discriminant",
      "no real root",
      "separate real",
    ],
    harmful: [
      "count complex",
      "include complex",
      "all root",
      "every root",
      "always two",
      "regardless",
      "skip discriminant",
      "ignore discriminant",
      "len root",
    ],
  },
  approach: {
    fallen: "Approach: solve each equation and count all the roots returned, regardless of the discriminant.",
    avoided:
      "Approach: check the sign of the discriminant first and count only real roots, discarding complex ones.",
  },
  error:
    "counted complex roots as real roots; it never checked the sign of the discriminant, so equations with a negative discriminant were wrongly counted",
  success: "checked the discriminant sign and counted only real roots",
  lessons: [
    "When counting real roots of quadratics, check the discriminant sign first; a negative discriminant means complex roots, which must not be counted as real.",
    "For questions about real solutions of polynomial equations, discard complex roots: compute b^2 - 4ac and count roots only when it is nonnegative.",
    "When a solver returns roots, verify they are real before counting; complex roots from a negative discriminant are not real solutions.",
  ],
  opposite: [
    "When counting roots of a quadratic, count two roots for every equation, including complex ones.",
    "For root counting, include complex roots as solutions; skip the discriminant check.",
  ],
  vague: ["When counting roots of a quadratic, remember the discriminant."],
  merged: [
    "When counting real roots, check the discriminant sign first and discard complex roots from negative discriminants.",
  ],
};

export const repeatedRoot: Pitfall = {
  id: "repeated-root",
  domain: "math",
  title: "double root counted twice",
  concept: {
    groups: [
      [
        "repeated",
        "double root",
        "double",
        "duplicate",
        "multiplicity",
        "coincid",
        "equal root",
        "zero discriminant",
        "discriminant zero",
        "discriminant 0",
        "same root",
      ],
      ["root", "solution", "zero"],
      ["distinct", "once", "unique", "count", "number"],
    ],
    required: [0],
    minGroups: 2,
    helpful: ["once", "distinct", "unique", "single", "deduplicate", "ignore multiplicity", "set"],
    harmful: ["twice", "multiplicity", "count each", "two root", "both root"],
  },
  approach: {
    fallen: "Approach: count a double root as two roots, with multiplicity.",
    avoided: "Approach: count a repeated (double) root once, since the question asks for distinct roots.",
  },
  error:
    "counted a double root twice (with multiplicity) although the question asks for distinct roots; a zero discriminant gives one distinct root",
  success: "counted the double root once as a distinct root",
  lessons: [
    "When a question asks for distinct roots, count a repeated root once; a zero discriminant gives a single distinct root.",
    "For distinct-solution counts, deduplicate double roots: equal roots count once, not twice.",
  ],
  opposite: ["When counting roots, count a double root twice, once per factor (multiplicity)."],
  vague: ["When a quadratic has a double root, be careful how you count it."],
  merged: ["When counting distinct roots, a double root (zero discriminant) counts once, not twice."],
};

export const intermediateRounding: Pitfall = {
  id: "intermediate-rounding",
  domain: "math",
  title: "rounding intermediate values",
  concept: {
    groups: [
      ["round", "nearest cent", "decimal place", "precision"],
      [
        "intermediate",
        "step",
        "final",
        "end",
        "last",
        "exact",
        "fraction",
        "successive",
        "midway",
        "partial result",
        "before",
      ],
    ],
    required: [0],
    minGroups: 2,
    helpful: [
      "only at end",
      "at end",
      "final step",
      "full precision",
      "exact",
      "keep exact",
      "fraction",
      "last step",
      "defer",
      "once at end",
    ],
    harmful: [
      "each step",
      "every step",
      "round intermediate",
      "intermediate round",
      "after each",
      "as you go",
      "early",
    ],
  },
  approach: {
    fallen: "Approach: round the intermediate price to the nearest cent after each step.",
    avoided: "Approach: keep exact fractions for the intermediate prices and round only once at the end.",
  },
  error:
    "rounded an intermediate value to the nearest cent after each step, and the rounding error changed the final result; it should round only once at the end",
  success: "kept exact intermediate values and rounded only at the end",
  lessons: [
    "When a calculation has several steps and a rounded final answer, keep intermediate values exact (fractions) and round only once at the end.",
    "For multi-step percentage or money problems, do not round intermediate results; carry full precision and round the final value.",
    "When the answer must be rounded, defer rounding to the last step; rounding each intermediate step accumulates error.",
  ],
  opposite: ["When computing money amounts over several steps, round to the nearest cent after each step."],
  vague: ["When rounding is involved, pay attention to the steps where you round."],
  merged: [
    "For multi-step computations with a rounded answer, keep exact intermediate values and round only at the end.",
  ],
};

export const successivePercentBase: Pitfall = {
  id: "successive-percent-base",
  domain: "math",
  title: "second percentage applied to the original value",
  concept: {
    groups: [
      ["percent", "discount", "markup", "increase", "decrease", "rise", "fall"],
      [
        "successive",
        "consecutive",
        "sequential",
        "second",
        "then",
        "followed",
        "chain",
        "compound",
        "multiply",
        "multiplier",
        "factor",
        "after",
      ],
      ["base", "new value", "new price", "updated", "current", "original", "net", "previous"],
    ],
    required: [0, 2],
    minGroups: 2,
    helpful: [
      "updated",
      "new value",
      "new price",
      "current",
      "previous result",
      "multiply",
      "multiplicatively",
      "compound",
      "chain",
      "factor",
    ],
    harmful: [
      "original",
      "add percent",
      "subtract percent",
      "net percent",
      "net change",
      "simply add",
      "sum percent",
      "cancel",
    ],
  },
  approach: {
    fallen: "Approach: combine the two percentage changes into one net change applied to the original price.",
    avoided:
      "Approach: apply the second percentage to the updated price, multiplying by one factor per change.",
  },
  error:
    "applied the second percentage change to the original price (a net change) instead of the updated price; successive percentage changes multiply",
  success: "applied each percentage change to the updated price",
  lessons: [
    "When a value changes by successive percentages, apply each change to the updated value by multiplying factors; never net the percentages against the original.",
    "For a rise followed by a fall in percent, compute the second change on the new price, not the original price.",
  ],
  opposite: [
    "When a price rises by a% then falls by b%, simply add the percentages and apply the net change to the original price.",
  ],
  vague: ["When there are several percentage changes, think about the base."],
  merged: [
    "For successive percentage changes, apply each change to the updated value (multiply the factors), not to the original.",
  ],
};

export const negativeModulo: Pitfall = {
  id: "negative-modulo",
  domain: "math",
  title: "negative remainder from truncating division",
  concept: {
    groups: [
      ["modulo", "mod", "modulus", "remainder", "modular", "residue", "congruence"],
      ["negative", "minus", "sign", "below zero"],
      [
        "nonnegative",
        "non negative",
        "positive",
        "least",
        "convention",
        "0 r m",
        "between 0",
        "fmod",
        "truncat",
      ],
    ],
    required: [0],
    minGroups: 2,
    helpful: [
      "nonnegative",
      "non negative",
      "least",
      "positive",
      "add modulus",
      "add m",
      "floor",
      "0 r m",
      "normaliz",
    ],
    harmful: [
      "truncat",
      "fmod",
      "negative remainder",
      "keep sign",
      "sign of dividend",
      "c style",
      "toward zero",
    ],
  },
  approach: {
    fallen:
      "Approach: take the remainder with truncation toward zero (math.fmod), keeping the sign of the dividend.",
    avoided: "Approach: reduce to the least nonnegative residue (0 <= r < m), adding the modulus if needed.",
  },
  error:
    "took a truncated remainder of a negative number (math.fmod), keeping the negative sign; the remainder must be the least nonnegative residue",
  success: "reduced the negative number to the least nonnegative residue",
  lessons: [
    "When reducing a negative number modulo m, give the least nonnegative residue (0 <= r < m); add the modulus to a truncated remainder.",
    "For remainders of negative numbers, use floor-based modulo (Python %), not math.fmod, so the result is nonnegative.",
  ],
  opposite: [
    "When taking a negative number modulo m, keep the sign of the dividend, as truncating division (fmod) gives.",
  ],
  vague: ["When taking a remainder of a negative number, mind the sign."],
  merged: [
    "For modular arithmetic with negatives, report the least nonnegative residue (0 <= r < m), never a truncated negative remainder.",
  ],
};

export const weightedMean: Pitfall = {
  id: "weighted-mean",
  domain: "math",
  title: "unweighted mean of group means",
  concept: {
    groups: [
      ["mean", "average", "avg"],
      [
        "weight",
        "weighted",
        "size",
        "count",
        "number of",
        "total",
        "sum",
        "pool",
        "combined",
        "overall",
        "unweighted",
      ],
      ["group", "subgroup", "class", "section", "category", "population"],
    ],
    required: [0],
    minGroups: 2,
    helpful: [
      "weight",
      "weighted",
      "by size",
      "total sum",
      "sum divided",
      "divide total",
      "pool",
      "multiply each mean",
      "group size",
    ],
    harmful: [
      "unweighted",
      "simple average",
      "mean of mean",
      "average mean",
      "average of average",
      "equal weight",
      "ignore size",
      "ignore group size",
    ],
  },
  approach: {
    fallen: "Approach: take the simple average of the group means.",
    avoided: "Approach: weight each group mean by its group size (total sum divided by total count).",
  },
  error:
    "took the simple average of the group means, ignoring the group sizes; the combined mean must weight each group's mean by its size",
  success: "weighted each group mean by its size",
  lessons: [
    "When combining averages of groups with different sizes, weight each group mean by its size: total sum divided by total count.",
    "For the overall mean of several classes, do not average the class means; pool the totals and divide by the combined count.",
  ],
  opposite: ["When combining group averages, take the simple average of the group means."],
  vague: ["When combining group averages, think about the groups."],
  merged: [
    "For the combined mean of groups, weight each group mean by its group size (total sum / total count), not a simple average of means.",
  ],
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
