import { type DefineRoleOptions, defineRole, type RoleDefinition } from "@tfgrpo/protocol";
import type { Critic } from "./create-critic.js";

/**
 * The critic's Bus endpoints: `tfgrpo.critic.reward` and `tfgrpo.critic.advantage` (stage 1 + stage 2 for one
 * group), both request/reply as the subject table says (over NATS a queue group: any number of critic workers
 * share the calls). A call is a few model calls, short enough for request/reply.
 */
export function createCriticRole(critic: Critic, options: DefineRoleOptions = {}): RoleDefinition<"critic"> {
  return defineRole(
    "critic",
    {
      reward: async (input) => {
        const result = await critic.reward(input.task, input.answers, {
          ...(input.groundTruth ? { groundTruth: input.groundTruth } : {}),
        });
        return {
          rewards: result.rewards,
          pseudoLabel: result.pseudoLabel,
          // Only model calls (the judge) cost anything; verifiers are free.
          ...(result.usage.calls > 0 ? { usage: result.usage } : {}),
        };
      },
      advantage: (input, context) => critic.groupAdvice(input, { signal: context.signal }),
    },
    options,
  );
}
