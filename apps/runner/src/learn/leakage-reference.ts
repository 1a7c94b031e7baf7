import { leakageFingerprintsOf } from "@tfgrpo/curator";
import type { Task } from "@tfgrpo/protocol";
import type { Store } from "@tfgrpo/store";
import type { LearnDependencies } from "./nodes/learn-dependencies.js";

/** What a consolidation request names instead of carrying the run's tasks. */
export interface LeakageReference {
  fingerprints: string;
}

const written = new WeakMap<object, Promise<LeakageReference>>();

/**
 * The run's leakage fingerprints (the answers and question words of every training and validation task), written
 * into the store the first time a consolidation of this process needs them and named by their digest from then on:
 * every path that consolidates (a step's candidate, and the candidate again after the head moved) passes that name,
 * and the curator reads the set from the store it shares with the runner. A Bus message therefore stays the size of
 * the step's proposals, whatever the pool. A resumed run writes the same set (the same tasks give the same digest,
 * stored once); runners on the same pool share it.
 */
export function leakageReference(
  deps: Pick<LearnDependencies, "store" | "train" | "val" | "log">,
): Promise<LeakageReference> {
  let reference = written.get(deps);
  if (!reference) {
    reference = writeFingerprints(deps.store, runTasks(deps), deps.train.size + deps.val.length, deps.log);
    written.set(deps, reference);
    // A failed write (a full disk...) is tried again by the next consolidation, not remembered.
    reference.catch(() => written.delete(deps));
  }
  return reference;
}

/** The training pool (read from its file, task by task) and then the validation tasks, never both held whole. */
function* runTasks(deps: Pick<LearnDependencies, "train" | "val">): Iterable<Task> {
  yield* deps.train;
  yield* deps.val;
}

async function writeFingerprints(
  store: Pick<Store, "putLeakageFingerprints">,
  tasks: Iterable<Task>,
  count: number,
  log: (line: string) => void,
): Promise<LeakageReference> {
  const digest = await store.putLeakageFingerprints(leakageFingerprintsOf({ tasks }));
  log(`leakage fingerprints of ${count} task(s): ${digest.slice(0, 12)}`);
  return { fingerprints: digest };
}
