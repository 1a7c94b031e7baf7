import { TfgrpoError } from "@tfgrpo/protocol";

/** One change of a state diff (tfgrpo's trajectory `environment.diff`: RFC 6901 paths, add/remove/replace). */
export interface StateChange {
  path: string;
  op: "add" | "remove" | "replace";
  before?: unknown;
  after?: unknown;
}

const segments = (path: string) =>
  path === ""
    ? []
    : path
        .slice(1)
        .split("/")
        .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));

/**
 * The state a diff leads to from `initial` (a copy; `initial` is untouched). The trajectory keeps the diff when the
 * final state is too large to store (the retail database is 2.8 MB), so the reward rebuilds the state from it.
 */
export function applyStateChanges(initial: unknown, changes: readonly StateChange[]): unknown {
  let root: unknown = structuredClone(initial);
  for (const change of changes) {
    const keys = segments(change.path);
    if (keys.length === 0) {
      root = change.op === "remove" ? undefined : structuredClone(change.after);
      continue;
    }
    let parent = root as Record<string, unknown> | unknown[];
    for (const key of keys.slice(0, -1)) {
      const next = Array.isArray(parent) ? parent[Number(key)] : parent?.[key];
      if (next === null || typeof next !== "object") {
        throw new TfgrpoError("invalid_input", `state diff: ${change.path} does not exist in the state`);
      }
      parent = next as Record<string, unknown> | unknown[];
    }
    const last = keys.at(-1)!;
    if (Array.isArray(parent)) {
      const index = Number(last);
      if (change.op === "remove") parent.splice(index, 1);
      else parent[index] = structuredClone(change.after);
    } else if (change.op === "remove") delete parent[last];
    else parent[last] = structuredClone(change.after);
  }
  return root;
}
