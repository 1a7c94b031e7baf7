import {
  type Bus,
  criticGroupAdvice,
  criticReward,
  type Handle,
  type HandlerContext,
  type Subject,
  type WorkOptions,
} from "@tfgrpo/protocol";
import type { Critic } from "./create-critic.js";

type InputOf<S> = S extends Subject<infer I, unknown> ? I : never;
type OutputOf<S> = S extends Subject<unknown, infer O> ? O : never;

export type CriticRewardRequest = InputOf<typeof criticReward>;
export type CriticRewardReply = OutputOf<typeof criticReward>;

export interface CriticService {
  /** Handler of `tfgrpo.critic.reward`. */
  reward(input: CriticRewardRequest): Promise<CriticRewardReply>;
  /** Handler of `tfgrpo.critic.advantage` (stage 1 + stage 2 for one group). */
  groupAdvice(
    input: InputOf<typeof criticGroupAdvice>,
    context?: HandlerContext,
  ): Promise<OutputOf<typeof criticGroupAdvice>>;
  /**
   * Serves both subjects on a Bus as request/reply handlers (over NATS: a queue group, so any number of critic
   * workers share the calls). The handle stops both.
   */
  serve(bus: Bus, options?: WorkOptions): Promise<Handle>;
}

/** The critic as a role service: its subject handlers, and a way to put them on a Bus. */
export function createCriticService(options: { critic: Critic }): CriticService {
  const { critic } = options;
  const service: CriticService = {
    async reward(input) {
      const result = await critic.reward(input.task, input.answers, {
        ...(input.groundTruth ? { groundTruth: input.groundTruth } : {}),
      });
      // Usage is only worth sending when a model was called (the judge); verifiers are free.
      return {
        rewards: result.rewards,
        pseudoLabel: result.pseudoLabel,
        ...(result.usage.calls > 0 ? { usage: result.usage } : {}),
      };
    },
    async groupAdvice(input, context) {
      return critic.groupAdvice(input, context ? { signal: context.signal } : {});
    },
    async serve(bus, workOptions = {}) {
      const handles = [
        await bus.handle(criticReward, (input) => service.reward(input), workOptions),
        await bus.handle(
          criticGroupAdvice,
          (input, context) => service.groupAdvice(input, context),
          workOptions,
        ),
      ];
      return {
        async close() {
          await Promise.all(handles.map((handle) => handle.close()));
        },
      };
    },
  };
  return service;
}
