import type { RolloutRequest } from "@tfgrpo/protocol";
import type { RunLabels } from "./react-loop.js";

/** What a rollout's LangChain run is called and carries, so LangSmith shows tfgrpo's run, step, task and library. */
export function rolloutLabels(request: RolloutRequest): RunLabels {
  const purpose = request.purpose ?? "train";
  return {
    runName: `tfgrpo rollout ${request.task.id} #${request.attempt}`,
    metadata: {
      tfgrpo_run_id: request.runId,
      tfgrpo_role: "actor",
      tfgrpo_domain: request.task.domain,
      tfgrpo_task_id: request.task.id,
      tfgrpo_attempt: request.attempt,
      tfgrpo_purpose: purpose,
      tfgrpo_library_version: request.library
        ? `${request.library.domain}@v${request.library.version}`
        : "none",
      ...(request.step === undefined ? {} : { tfgrpo_step: request.step }),
    },
    tags: ["tfgrpo", "actor", purpose],
  };
}
