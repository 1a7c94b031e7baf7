import {
  type Bus,
  type DefineRoleOptions,
  defineRole,
  type Handle,
  inSpan,
  type RoleDefinition,
  type ServeEvent,
  spanAttributes,
} from "@tfgrpo/protocol";
import type { Actor } from "./create-actor.js";

/**
 * The actor's Bus endpoint, `tfgrpo.actor.rollout`, served as the subject table says: as jobs from the durable
 * work queue (what the learning loop enqueues: heartbeats while the rollout runs, redelivered if the worker dies)
 * and as request/reply calls (e.g. `solve` against a remote worker). `modes` keeps to one of them; `concurrency`
 * is rollouts at once per mode. For `tfgrpo serve --role actor` and `serveActor`.
 */
export function createActorRole(actor: Actor, options: DefineRoleOptions = {}): RoleDefinition<"actor"> {
  return defineRole(
    "actor",
    {
      rollout: (request, context) =>
        inSpan(
          "rollout",
          {
            attributes: {
              [spanAttributes.rolloutId]: `${request.groupId}/${request.attempt}`,
              [spanAttributes.taskId]: request.task.id,
              [spanAttributes.attempt]: request.attempt,
              [spanAttributes.runId]: request.runId,
              [spanAttributes.domain]: request.task.domain,
              ...(request.step === undefined ? {} : { [spanAttributes.step]: request.step }),
              ...(request.purpose ? { "tfgrpo.purpose": request.purpose } : {}),
              ...(request.library ? { [spanAttributes.libraryVersion]: request.library.version } : {}),
            },
          },
          async (span) => {
            if (context.mode === "request") return actor.rollout(request, { signal: context.signal });
            const trajectory = await actor.rollout(request, {
              signal: context.signal,
              onProgress: () => context.working(),
            });
            // A rollout cut short because this worker is shutting down says nothing about the policy: fail the job
            // so the queue gives it to another worker, rather than storing an "error" trajectory as its result.
            if (context.signal.aborted) throw context.signal.reason;
            span.setAttributes({
              "tfgrpo.trajectory_id": trajectory.id,
              "tfgrpo.stop_reason": trajectory.stopReason,
              [spanAttributes.costUsd]: trajectory.usage.costUsd,
            });
            return trajectory;
          },
        ),
    },
    options,
  );
}

export interface ServeActorOptions extends DefineRoleOptions {
  bus: Bus;
  actor: Actor;
  onEvent?: (event: ServeEvent) => void;
}

/**
 * Serves an actor on a Bus until the handle is closed; close() stops taking work and waits for the rollouts in
 * flight. Any number of actor workers can serve the same Bus.
 */
export async function serveActor(options: ServeActorOptions): Promise<Handle> {
  const { bus, actor, onEvent, ...roleOptions } = options;
  return createActorRole(actor, roleOptions).serve(bus, onEvent ? { onEvent } : {});
}
