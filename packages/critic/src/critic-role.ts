import { type DefineRoleOptions, defineRole, type RoleDefinition } from "@tfgrpo/protocol";
import type { Critic } from "./create-critic.js";
import { type CriticReader, readExperienceLines, readTrajectories } from "./critic-reader.js";

/**
 * The critic's Bus endpoints: `tfgrpo.critic.reward` and `tfgrpo.critic.advantage` (stage 1 + stage 2 for one
 * group), both request/reply as the subject table says (over NATS a queue group: any number of critic workers
 * share the calls). A call is a few model calls, short enough for request/reply. Requests name the group's
 * trajectories and the library by id; `reader` fetches them.
 */
export function createCriticRole(
  critic: Critic,
  reader: CriticReader,
  options: DefineRoleOptions = {},
): RoleDefinition<"critic"> {
  return defineRole(
    "critic",
    {
      reward: async (input) => {
        const trajectories = await readTrajectories(reader, input.groupId, input.trajectoryIds);
        const answers = trajectories.map((t) => ({ trajectoryId: t.id, finalAnswer: t.finalAnswer }));
        const result = await critic.reward(input.task, answers, {
          trajectories,
          ...(input.groundTruth ? { groundTruth: input.groundTruth } : {}),
        });
        return {
          rewards: result.rewards,
          pseudoLabel: result.pseudoLabel,
          // Only model calls (the judge) cost anything; verifiers are free.
          ...(result.usage.calls > 0 ? { usage: result.usage } : {}),
        };
      },
      advantage: async (input, context) => {
        const [trajectories, experiences] = await Promise.all([
          readTrajectories(reader, input.groupId, input.trajectoryIds),
          readExperienceLines(reader, input.library),
        ]);
        return critic.groupAdvice(
          {
            runId: input.runId,
            groupId: input.groupId,
            task: input.task,
            trajectories,
            experiences,
            ...(input.pseudoLabel !== undefined ? { pseudoLabel: input.pseudoLabel } : {}),
          },
          { signal: context.signal },
        );
      },
    },
    options,
  );
}
