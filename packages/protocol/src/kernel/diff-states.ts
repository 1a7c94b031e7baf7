import type { StateChange } from "../schemas/trajectory.js";

/** One path segment of a JSON Pointer (RFC 6901): `/` and the key, its `~` and `/` escaped. */
export function pointerSegment(key: string | number): string {
  return `/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The changes from `before` to `after`, two JSON values (an environment's state after reset and at the end of an
 * attempt): objects are compared key by key (sorted, so the order is stable), arrays index by index, anything else by
 * value. Deterministic, so two attempts that did the same thing have equal diffs.
 */
export function diffStates(before: unknown, after: unknown, path = ""): StateChange[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const here = path + pointerSegment(key);
      if (!(key in after)) return [{ path: here, op: "remove" as const, before: before[key] }];
      if (!(key in before)) return [{ path: here, op: "add" as const, after: after[key] }];
      return diffStates(before[key], after[key], here);
    });
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const changes: StateChange[] = [];
    const shared = Math.min(before.length, after.length);
    for (let i = 0; i < shared; i++)
      changes.push(...diffStates(before[i], after[i], path + pointerSegment(i)));
    for (let i = shared; i < after.length; i++)
      changes.push({ path: path + pointerSegment(i), op: "add", after: after[i] });
    for (let i = before.length - 1; i >= shared; i--)
      changes.push({ path: path + pointerSegment(i), op: "remove", before: before[i] });
    return changes;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ path, op: "replace", before, after }];
}
