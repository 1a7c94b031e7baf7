import {
  actorRollout,
  type Bus,
  defineServedSubject,
  type Handle,
  type ServedSubject,
  type ServeEvent,
  serveSubjects,
} from "@tfgrpo/protocol";
import type { Actor } from "./create-actor.js";

export interface ActorSubjectsOptions {
  /** Rollouts at once, per mode (jobs and requests each). */
  concurrency?: number;
  /** Serve the durable job queue, request/reply calls, or both (default). */
  modes?: readonly ("job" | "request")[];
}

/**
 * What an actor serves on a Bus: `tfgrpo.actor.rollout` as jobs from the durable work queue (what the learning loop
 * enqueues: heartbeats while the rollout runs, redelivered if the worker dies) and as request/reply calls (e.g.
 * `solve` against a remote worker). For `tfgrpo serve --role actor` and `serveActor`.
 */
export function actorSubjects(actor: Actor, options: ActorSubjectsOptions = {}): ServedSubject[] {
  const modes = new Set(options.modes ?? ["job", "request"]);
  const concurrency = options.concurrency === undefined ? {} : { concurrency: options.concurrency };
  const subjects: ServedSubject[] = [];
  if (modes.has("job")) {
    subjects.push(
      defineServedSubject({
        subject: actorRollout,
        mode: "job",
        handler: async (request, context) => {
          const trajectory = await actor.rollout(request, {
            signal: context.signal,
            onProgress: () => context.working(),
          });
          // A rollout cut short because this worker is shutting down says nothing about the policy: fail the job
          // so the queue gives it to another worker, rather than storing an "error" trajectory as its result.
          if (context.signal.aborted) throw context.signal.reason;
          return trajectory;
        },
        ...concurrency,
      }),
    );
  }
  if (modes.has("request")) {
    subjects.push(
      defineServedSubject({
        subject: actorRollout,
        mode: "request",
        handler: (request, context) => actor.rollout(request, { signal: context.signal }),
        ...concurrency,
      }),
    );
  }
  return subjects;
}

export interface ServeActorOptions extends ActorSubjectsOptions {
  bus: Bus;
  actor: Actor;
  onEvent?: (event: ServeEvent) => void;
}

/**
 * Serves an actor on a Bus until the handle is closed; close() stops taking work and waits for the rollouts in
 * flight. Any number of actor workers can serve the same Bus.
 */
export async function serveActor(options: ServeActorOptions): Promise<Handle> {
  return serveSubjects(options.bus, actorSubjects(options.actor, options), {
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
}
