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

type Container = Record<string, unknown> | unknown[];

/**
 * The state a diff leads to from `initial`, which stays untouched: only the containers on a changed path are copied
 * (the rest is shared, so comparing with another copy of the same database is quick). The trajectory keeps the diff
 * when the final state is too large to store (the retail database is 2.8 MB), so the reward rebuilds the state.
 */
export function applyStateChanges(initial: unknown, changes: readonly StateChange[]): unknown {
  const own = new WeakSet<object>();
  const copy = (value: Container): Container => {
    const out = Array.isArray(value) ? [...value] : { ...value };
    own.add(out);
    return out;
  };
  let root: unknown = initial !== null && typeof initial === "object" ? copy(initial as Container) : initial;
  for (const change of changes) {
    const keys = segments(change.path);
    if (keys.length === 0) {
      root = change.op === "remove" ? undefined : structuredClone(change.after);
      continue;
    }
    let parent = root as Container;
    for (const key of keys.slice(0, -1)) {
      const next = Array.isArray(parent) ? parent[Number(key)] : parent?.[key];
      if (next === null || typeof next !== "object") {
        throw new TfgrpoError("invalid_input", `state diff: ${change.path} does not exist in the state`);
      }
      const mine = own.has(next) ? (next as Container) : copy(next as Container);
      if (Array.isArray(parent)) parent[Number(key)] = mine;
      else parent[key] = mine;
      parent = mine;
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
