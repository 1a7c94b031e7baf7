import { actorRollout, type Bus, type Handle } from "@tfgrpo/protocol";
import type { Actor } from "./create-actor.js";

export interface ServeActorOptions {
  bus: Bus;
  actor: Actor;
  /** Rollouts this process runs at once (jobs and requests each). */
  concurrency?: number;
  /** Serve the durable job queue (default), request/reply calls (default), or only one of them. */
  modes?: readonly ("job" | "request")[];
}

/**
 * Serves `tfgrpo.actor.rollout` on a Bus: as jobs from the durable work queue (what the learning loop enqueues:
 * heartbeats while the rollout runs, redelivered if this worker dies) and as request/reply calls (e.g. `solve`
 * against a remote worker). Any number of actor workers can serve the same Bus. close() stops taking work and
 * waits for the rollouts in flight.
 */
export async function serveActor(options: ServeActorOptions): Promise<Handle> {
  const { bus, actor } = options;
  const modes = new Set(options.modes ?? ["job", "request"]);
  const workOptions = options.concurrency === undefined ? {} : { concurrency: options.concurrency };
  const handles: Handle[] = [];
  try {
    if (modes.has("job")) {
      handles.push(
        await bus.work(
          actorRollout,
          (request, context) =>
            actor.rollout(request, { signal: context.signal, onProgress: () => context.working() }),
          workOptions,
        ),
      );
    }
    if (modes.has("request")) {
      handles.push(
        await bus.handle(
          actorRollout,
          (request, context) => actor.rollout(request, { signal: context.signal }),
          workOptions,
        ),
      );
    }
  } catch (error) {
    await Promise.allSettled(handles.map((handle) => handle.close()));
    throw error;
  }
  return {
    async close() {
      await Promise.allSettled(handles.map((handle) => handle.close()));
    },
  };
}
