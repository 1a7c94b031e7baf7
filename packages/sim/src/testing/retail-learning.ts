import type { RetailDb, Tau2Task } from "@tfgrpo/tau2-retail";
import { quietNoise } from "../behaviour.js";
import { createSimCritic } from "../critic/sim-critic.js";
import type { SimModel } from "../sim-model.js";
import { runRetailConversation } from "./retail-conversation.js";
import { passHat } from "./retail-pass-hat.js";

/**
 * Training-Free GRPO's loop on the retail world, in-process and in miniature (no store, no Bus, no curator): G
 * attempts per task with the current library, the simulated critic's stage 1 on each and stage 2 on groups with
 * mixed rewards, its `add` operations appended (exact duplicates dropped). For tests and the measured numbers of
 * docs/tau2-retail.md; the real loop is `tfgrpo learn`.
 */
export function learnRetailLibrary(
  model: SimModel,
  train: readonly Tau2Task[],
  initial: RetailDb,
  options: { groupSize: number; epochs: number; seed: number },
): string[] {
  const critic = createSimCritic({ seed: options.seed, noise: quietNoise });
  const library: string[] = [];
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    const additions: string[] = [];
    for (const task of train) {
      const attempts = Array.from({ length: options.groupSize }, (_, g) =>
        runRetailConversation(model, task, initial, {
          experiences: library,
          seed: options.seed * 1000 + epoch * 100 + g,
        }),
      );
      const rewards = attempts.map((a) => a.reward);
      if (Math.max(...rewards) === Math.min(...rewards)) continue;
      const summaries = attempts.map((attempt) =>
        critic.summarize(
          `<trajectory>${attempt.rendered}</trajectory><evaluation>reward ${attempt.reward}</evaluation><groundtruth>${attempt.groundTruth}</groundtruth>`,
        ),
      );
      const trajectories = summaries
        .map((summary, i) => `<attempt index="${i + 1}" reward="${rewards[i]}">${summary}</attempt>`)
        .join("\n");
      for (const operation of critic.advantage(
        `<problem>${task.id}</problem><trajectories>${trajectories}</trajectories>`,
      ).operations) {
        if (operation.option === "add" && operation.experience) additions.push(operation.experience);
      }
    }
    for (const text of additions) if (!library.includes(text)) library.push(text);
  }
  return library;
}

/** pass^k (k = 1..4) and the mean over tasks of k trials each, with a library. */
export function evaluateRetail(
  model: SimModel,
  tasks: readonly Tau2Task[],
  initial: RetailDb,
  library: readonly string[],
  options: { trials: number; seed: number },
): { passHat: number[]; perTask: number[][] } {
  const perTask = tasks.map((task) =>
    Array.from(
      { length: options.trials },
      (_, t) =>
        runRetailConversation(model, task, initial, {
          experiences: library,
          seed: 900_000 + options.seed * 10 + t,
        }).reward,
    ),
  );
  return { passHat: passHat(perTask, options.trials), perTask };
}
