import type { Critic } from "@tfgrpo/critic";
import { trajectorySchema } from "@tfgrpo/protocol";
import type { OnlineOutcome, SummarizeOutcome } from "@tfgrpo/serving";

/**
 * The critic's stage-1 summary of an outcome's stored trajectory, made only when a reflection needs it (a group
 * member). `groundTruth` looks up a task's known answer (the client's evaluator had it); unknown tasks are
 * summarized against their reward alone. An outcome whose trajectory is not a tfgrpo trajectory gets no summary
 * here (its feedback or summary text is used instead).
 */
export function createOutcomeSummarizer(options: {
  critic: Pick<Critic, "summarize">;
  groundTruth?: (task: string) => string | null;
}): SummarizeOutcome {
  return async (outcome: OnlineOutcome) => {
    const parsed = trajectorySchema.safeParse(outcome.trajectory);
    if (!parsed.success) return null;
    const trajectory = { ...parsed.data, reward: parsed.data.reward ?? outcome.reward };
    const answer = options.groundTruth?.(outcome.task) ?? null;
    const { summary } = await options.critic.summarize(
      {
        id: trajectory.taskId,
        domain: outcome.domain,
        question: outcome.task,
        ...(answer ? { answer } : {}),
      },
      trajectory,
      [],
      { groundTruth: answer },
    );
    return summary;
  };
}
