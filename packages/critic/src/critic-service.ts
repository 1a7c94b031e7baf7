import {
  type Bus,
  criticGroupAdvice,
  criticReward,
  defineServedSubject,
  type Handle,
  type HandlerContext,
  type ServedSubject,
  type ServeSubjectsOptions,
  type Subject,
  serveSubjects,
} from "@tfgrpo/protocol";
import type { Critic } from "./create-critic.js";

type InputOf<S> = S extends Subject<infer I, unknown> ? I : never;
type OutputOf<S> = S extends Subject<unknown, infer O> ? O : never;

export type CriticRewardRequest = InputOf<typeof criticReward>;
export type CriticRewardReply = OutputOf<typeof criticReward>;
export type CriticGroupAdviceRequest = InputOf<typeof criticGroupAdvice>;
export type CriticGroupAdviceReply = OutputOf<typeof criticGroupAdvice>;

export interface CriticService {
  /** Handler of `tfgrpo.critic.reward`. */
  reward(input: CriticRewardRequest): Promise<CriticRewardReply>;
  /** Handler of `tfgrpo.critic.advantage`: stage 1 + stage 2 for one group. */
  groupAdvice(input: CriticGroupAdviceRequest, context?: HandlerContext): Promise<CriticGroupAdviceReply>;
  /**
   * Both subjects as request/reply handlers (over NATS a queue group: any number of critic workers share the
   * calls). The runner calls them with `bus.request`; a call is a few model calls, short enough for request/reply.
   */
  subjects: readonly ServedSubject[];
  /** Puts `subjects` on a Bus; the handle stops serving both. */
  serve(bus: Bus, options?: ServeSubjectsOptions): Promise<Handle>;
}

/** The critic as a role service: its subject handlers, and a way to put them on a Bus. */
export function createCriticService(options: { critic: Critic; concurrency?: number }): CriticService {
  const { critic } = options;
  const concurrency = options.concurrency === undefined ? {} : { concurrency: options.concurrency };
  const reward: CriticService["reward"] = async (input) => {
    const result = await critic.reward(input.task, input.answers, {
      ...(input.groundTruth ? { groundTruth: input.groundTruth } : {}),
    });
    return {
      rewards: result.rewards,
      pseudoLabel: result.pseudoLabel,
      // Only model calls (the judge) cost anything; verifiers are free.
      ...(result.usage.calls > 0 ? { usage: result.usage } : {}),
    };
  };
  const groupAdvice: CriticService["groupAdvice"] = (input, context) =>
    critic.groupAdvice(input, context ? { signal: context.signal } : {});
  const subjects = [
    defineServedSubject({
      subject: criticReward,
      mode: "request",
      handler: (input) => reward(input),
      ...concurrency,
    }),
    defineServedSubject({
      subject: criticGroupAdvice,
      mode: "request",
      handler: (input, context) => groupAdvice(input, context),
      ...concurrency,
    }),
  ];
  return {
    reward,
    groupAdvice,
    subjects,
    serve: (bus, serveOptions) => serveSubjects(bus, subjects, serveOptions),
  };
}
