import { seededRandom, type Task, TfgrpoError } from "@tfgrpo/protocol";

/** The task field batches are stratified by when the user names none (the sim's suites and most benchmarks carry it). */
export const defaultStratifyField = "meta.family";

/** A task's value at a dotted path ("meta.family", "domain"), as a string; undefined when absent. */
export function taskField(task: Task, path: string): string | undefined {
  let value: unknown = task;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The field to stratify by: the one named (an error naming it when no training task carries it), none for "none",
 * else the family when the tasks carry one.
 */
export function resolveStratifyField(tasks: readonly Task[], requested: string | undefined): string | null {
  return stratifyFieldOf(requested, (field) => tasks.some((task) => taskField(task, field) !== undefined));
}

/** `resolveStratifyField` given whether some training task carries a field. */
export function stratifyFieldOf(
  requested: string | undefined,
  carried: (field: string) => boolean,
): string | null {
  if (requested === "none") return null;
  const field = requested ?? defaultStratifyField;
  if (carried(field)) return field;
  if (requested === undefined) return null;
  throw new TfgrpoError(
    "invalid_input",
    `--stratify-by ${field}: no training task has the field "${field}" (try a field of the task such as meta.family or domain, or none)`,
    { details: { field } },
  );
}

/**
 * One epoch's visiting order (seed 002 §5.1): tasks shuffled inside each stratum, then the strata interleaved in
 * proportion to their sizes, so any run of consecutive tasks (a batch) holds each stratum in its share, within one.
 * Without a field it is a plain seeded shuffle. Every task appears once.
 */
export function stratifiedOrder(tasks: readonly Task[], field: string | null, seed: number): string[] {
  return stratifiedOrderOf(
    tasks.map((task) => task.id),
    field === null ? null : (index) => taskField(tasks[index]!, field),
    seed,
  );
}

/**
 * `stratifiedOrder` over ids and their strata (by index): what a pool held by reference gives. Linear in the pool
 * times the number of strata, and computed once per epoch.
 */
export function stratifiedOrderOf(
  ids: readonly string[],
  stratumOf: ((index: number) => string | undefined) | null,
  seed: number,
): string[] {
  const random = seededRandom(seed);
  if (stratumOf === null) return shuffle(ids, random);
  const strata = new Map<string, string[]>();
  ids.forEach((id, index) => {
    const value = stratumOf(index) ?? "(none)";
    const list = strata.get(value);
    if (list) list.push(id);
    else strata.set(value, [id]);
  });
  const lists = [...strata.keys()].sort().map((key) => shuffle(strata.get(key)!, random));
  const taken = lists.map(() => 0);
  const out: string[] = [];
  for (let position = 1; position <= ids.length; position++) {
    // The stratum furthest behind its share of the first `position` tasks goes next (ties: the larger, then first).
    let best = -1;
    let bestLag = Number.NEGATIVE_INFINITY;
    lists.forEach((list, index) => {
      if (taken[index]! >= list.length) return;
      const lag = (position * list.length) / ids.length - taken[index]!;
      if (lag > bestLag + 1e-12) {
        best = index;
        bestLag = lag;
      }
    });
    out.push(lists[best]![taken[best]!]!);
    taken[best]!++;
  }
  return out;
}

function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The batch of one step: the epoch order's slice, with up to `share` of it replaced by earlier failures that are not
 * in it (tasks whose latest group in this run had mean reward below 1), drawn with the seed. The replaced tasks are the
 * slice's last ones; they come up again in the next epoch's order.
 */
export function batchWithFailures(
  slice: readonly string[],
  failures: readonly string[],
  share: number,
  seed: number,
): string[] {
  const inSlice = new Set(slice);
  const pool = shuffle([...failures].filter((id) => !inSlice.has(id)).sort(), seededRandom(seed));
  const count = Math.min(pool.length, Math.round(share * slice.length));
  return [...slice.slice(0, slice.length - count), ...pool.slice(0, count)];
}
