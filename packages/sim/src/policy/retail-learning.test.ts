import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadRetailDb, type Tau2Task, tau2TaskSchema } from "@tfgrpo/tau2-retail";
import { describe, expect, it } from "vitest";
import { quietNoise } from "../behaviour.js";
import { createSimCritic } from "../critic/sim-critic.js";
import { createSimModel } from "../sim-model.js";
import { runRetailConversation } from "../testing/retail-conversation.js";
import { evaluateRetail, learnRetailLibrary } from "../testing/retail-learning.js";

const data = (name: string) =>
  fileURLToPath(new URL(`../../../../test-data/tau2-bench-retail/${name}`, import.meta.url));
const db = loadRetailDb(data("db.json"));
const all = new Map(
  (JSON.parse(readFileSync(data("tasks.json"), "utf8")) as unknown[]).map((raw) => {
    const task = tau2TaskSchema.parse(raw);
    return [task.id, task] as [string, Tau2Task];
  }),
);
const split = JSON.parse(readFileSync(data("split_tasks.json"), "utf8")) as {
  train: string[];
  test: string[];
};
const model = createSimModel({ seed: 7, noise: quietNoise });

describe("the simulated critic on retail attempts (SIMULATED)", () => {
  it("finds from the transcript and the reference calls what a failed attempt did wrong", () => {
    const critic = createSimCritic({ seed: 1, noise: quietNoise });
    // Task 38 cancels an order; with a lesson telling the agent to pass the customer's words, it is refused.
    const failed = [1, 2, 3, 4, 5, 6]
      .map((seed) =>
        runRetailConversation(model, all.get("38")!, db, {
          experiences: ["Pass the customer's explanation verbatim as the cancellation reason."],
          seed,
        }),
      )
      .find((r) => r.calls.some((c) => c.output === "Error: Invalid reason"))!;
    expect(failed.reward).toBe(0);
    const summary = critic.summarize(
      `<trajectory>${failed.rendered}</trajectory><evaluation>reward 0</evaluation><groundtruth>${failed.groundTruth}</groundtruth>`,
    );
    expect(summary).toMatch(/^- \[reason\]/m);
    const good = [1, 2, 3, 4, 5, 6, 7, 8]
      .map((seed) =>
        runRetailConversation(model, all.get("38")!, db, {
          experiences: [
            "The cancellation reason must be exactly 'no longer needed' or 'ordered by mistake'.",
          ],
          seed,
        }),
      )
      .find((r) => r.reward === 1)!;
    const goodSummary = critic.summarize(
      `<trajectory>${good.rendered}</trajectory><evaluation>reward ${good.reward}</evaluation><groundtruth>${good.groundTruth}</groundtruth>`,
    );
    const { operations } = critic.advantage(
      `<problem>x</problem><trajectories><attempt index="1" reward="0">${summary}</attempt><attempt index="2" reward="${good.reward}">${goodSummary}</attempt></trajectories>`,
    );
    expect(operations.map((o) => o.option)).toContain("add");
    expect(operations.map((o) => o.experience).join(" ")).toMatch(/no longer needed/);
  });

  it("learning on train tasks (G = 4) lifts held-out pass^1 and pass^4 by 20 points or more", () => {
    const train = split.train.slice(0, 24).map((id) => all.get(id)!);
    const test = split.test.slice(0, 12).map((id) => all.get(id)!);
    const library = learnRetailLibrary(model, train, db, { groupSize: 4, epochs: 2, seed: 3 });
    expect(library.length).toBeGreaterThan(3);
    const none = evaluateRetail(model, test, db, [], { trials: 4, seed: 2 });
    const learned = evaluateRetail(model, test, db, library, { trials: 4, seed: 2 });
    expect(learned.passHat[0]! - none.passHat[0]!).toBeGreaterThanOrEqual(0.2);
    expect(learned.passHat[3]! - none.passHat[3]!).toBeGreaterThanOrEqual(0.15);
  });
});
