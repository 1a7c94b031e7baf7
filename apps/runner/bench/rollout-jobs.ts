import type { RolloutRequest, Task } from "@tfgrpo/protocol";
import { type Mode, seed } from "./bench-settings.js";

/** `count` rollouts of the empty library, spread over `tasks` (task i % tasks.length, attempt i / tasks.length). */
export function rolloutJobs(runId: string, tasks: readonly Task[], count: number, mode: Mode) {
  return Array.from({ length: count }, (_, i) => {
    const task = tasks[i % tasks.length]!;
    const attempt = Math.floor(i / tasks.length);
    const groupId = `${runId}/${task.id}`;
    const input: RolloutRequest = {
      runId,
      task,
      groupId,
      attempt,
      library: null,
      mode,
      temperature: 0.7,
      seed: seed * 1000 + i,
      purpose: "eval",
    };
    return { id: `${groupId}/${attempt}`, input };
  });
}
