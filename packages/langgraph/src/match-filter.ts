import { TfgrpoError } from "@tfgrpo/protocol";

/**
 * LangGraph store filters over an item's value: `{ status: "active" }` (equality) or operators
 * `{ shown: { $gte: 3 } }` — `$eq, $ne, $gt, $gte, $lt, $lte, $in, $nin`. An unknown operator is an error, not a
 * silent match.
 */
export function matchesFilter(value: Record<string, unknown>, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([field, condition]) => {
    const actual = value[field];
    if (condition === null || typeof condition !== "object" || Array.isArray(condition)) {
      return equal(actual, condition);
    }
    return Object.entries(condition as Record<string, unknown>).every(([operator, expected]) => {
      switch (operator) {
        case "$eq":
          return equal(actual, expected);
        case "$ne":
          return !equal(actual, expected);
        case "$gt":
          return compare(actual, expected) > 0;
        case "$gte":
          return compare(actual, expected) >= 0;
        case "$lt":
          return compare(actual, expected) < 0;
        case "$lte":
          return compare(actual, expected) <= 0;
        case "$in":
          return Array.isArray(expected) && expected.some((item) => equal(actual, item));
        case "$nin":
          return Array.isArray(expected) && !expected.some((item) => equal(actual, item));
        default:
          throw new TfgrpoError(
            "invalid_input",
            `filter on ${field}: unknown operator ${operator} (use $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin)`,
          );
      }
    });
  });
}

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** NaN (never matches) when the two cannot be ordered. */
function compare(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  return Number.NaN;
}
