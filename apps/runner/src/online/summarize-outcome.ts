import { type Critic, dataLimits } from "@tfgrpo/critic";
import type { OnlineOutcome, SummarizeOutcome } from "@tfgrpo/serving";
import { toCriticTrajectory } from "./plain-trajectory.js";

/**
 * The critic's stage-1 summary of an outcome's reported trajectory (a tfgrpo trajectory, or the plain messages a
 * LangGraph client reported), made only when a reflection needs it (a group member). `groundTruth` looks up a
 * task's known answer (the client's evaluator had it); unknown tasks are summarized against their reward alone.
 * An outcome without a readable trajectory gets no summary here (its feedback or summary text is used instead).
 */
export function createOutcomeSummarizer(options: {
  critic: Pick<Critic, "summarize">;
  groundTruth?: (task: string) => string | null;
}): SummarizeOutcome {
  return async (outcome: OnlineOutcome) => {
    const trajectory = toCriticTrajectory(outcome.trajectory, {
      id: outcome.selectionId,
      taskId: outcome.selectionId,
      domain: outcome.domain,
      version: outcome.version,
      reward: outcome.reward,
    });
    if (trajectory === null) return null;
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
      // A client's trajectory: untrusted and unbounded, so capped (the summary prompt quotes it as data).
      { groundTruth: answer, maxTrajectoryChars: dataLimits.trajectory },
    );
    return summary;
  };
}
