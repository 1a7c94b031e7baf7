import { type Task, TfgrpoError } from "@tfgrpo/protocol";
import { makeCodeTrajectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { createCritic } from "./create-critic.js";
import { createJudge } from "./rewards/create-judge.js";
import { fakeCriticModels } from "./testing/fake-critic-models.js";

const task: Task = {
  id: "t1",
  domain: "math",
  question: "How many integers n satisfy 3 <= n <= 10?",
  answer: "8",
};
const experiences = [
  { id: "G0", text: "When counting integers in a closed range, include both endpoints." },
  { id: "G1", text: "Verify a count by listing small cases with code." },
];
const summaryText = (prompt: string) =>
  prompt.includes("<evaluation>correct</evaluation>")
    ? "Step 1: Counted with code.\nStep 2: Applied [G0], answer 8."
    : "Step 1: Counted with code.\nStep 2: ERROR - dropped an endpoint, answer 7.";

const advantageAnswer = {
  operations: [
    {
      option: "modify",
      experience_id: "G0",
      experience: "For closed ranges, count both endpoints: b - a + 1.",
      reason: "attempt 2 lost one",
    },
    {
      option: "add",
      experience: "Cross-check counts with a short enumeration in code.",
      reason: "winners did",
    },
  ],
};

function group(rewards: number[]) {
  return rewards.map((reward, attempt) =>
    makeCodeTrajectory({
      id: `tr-${attempt}`,
      attempt,
      reward,
      grade: reward === 1 ? "pass" : "fail",
      final: reward === 1 ? "\\boxed{8}" : "\\boxed{7}",
    }),
  );
}

describe("critic.reward", () => {
  it("rewards each answer with the math verifier when there is ground truth", async () => {
    const critic = createCritic({ models: fakeCriticModels(() => new Error("no model call expected")) });
    const result = await critic.reward(task, [
      { trajectoryId: "a", finalAnswer: "so \\boxed{8}" },
      { trajectoryId: "b", finalAnswer: "\\boxed{7}" },
      { trajectoryId: "c", finalAnswer: null },
    ]);
    expect(result.pseudoLabel).toBeNull();
    expect(result.usage.calls).toBe(0);
    expect(result.rewards.map((r) => [r.trajectoryId, r.reward, r.grade, r.extracted, r.method])).toEqual([
      ["a", 1, "pass", "8", "math"],
      ["b", 0, "fail", "7", "math"],
      ["c", 0, "fail", null, "math"],
    ]);
  });

  it("without ground truth, rewards agreement with the group's majority and flags it", async () => {
    const critic = createCritic({ models: fakeCriticModels(() => new Error("unused")) });
    const { answer: _answer, ...noAnswer } = task;
    const result = await critic.reward(noAnswer, [
      { trajectoryId: "a", finalAnswer: "\\boxed{\\frac{1}{2}}" },
      { trajectoryId: "b", finalAnswer: "\\boxed{0.5}" },
      { trajectoryId: "c", finalAnswer: "\\boxed{3}" },
    ]);
    expect(result.pseudoLabel).toBe("\\frac{1}{2}");
    expect(result.rewards.map((r) => [r.reward, r.pseudoLabel, r.method])).toEqual([
      [1, true, "math+majority"],
      [1, true, "math+majority"],
      [0, true, "math+majority"],
    ]);
    expect(result.rewards[2]?.reason).toContain("pseudo-label \\frac{1}{2} (majority 2/3)");
    // groundTruth "none" ignores an answer that is there.
    const forced = await critic.reward(task, [{ trajectoryId: "a", finalAnswer: "\\boxed{5}" }], {
      groundTruth: "none",
    });
    expect(forced).toMatchObject({ pseudoLabel: "5", rewards: [{ reward: 1, pseudoLabel: true }] });
  });

  it("asks the judge against the majority label when configured, telling it the label is a vote", async () => {
    const models = fakeCriticModels((call) =>
      call.prompt.includes("<response>42</response>")
        ? { verdict: "correct", reason: "same" }
        : { verdict: "incorrect", reason: "no" },
    );
    const critic = createCritic({ models, judge: createJudge({ models }), pseudoLabelJudge: true });
    const result = await critic.reward({ id: "w1", domain: "web", question: "Answer?" }, [
      { trajectoryId: "a", finalAnswer: "\\boxed{42}" },
      { trajectoryId: "b", finalAnswer: "\\boxed{42}" },
      { trajectoryId: "c", finalAnswer: "\\boxed{41}" },
    ]);
    expect(result.rewards.map((r) => [r.reward, r.method])).toEqual([
      [1, "judge+majority"],
      [1, "judge+majority"],
      [0, "judge+majority"],
    ]);
    expect(models.calls.every((call) => call.role === "judge" && call.prompt.includes("majority vote"))).toBe(
      true,
    );
    expect(result.usage.calls).toBe(3);
  });

  it("uses the judge for non-math domains, with a majority of n samples and strict ties", async () => {
    let call = 0;
    const verdicts = ["correct", "incorrect", "correct", "partial", "incorrect", "correct", "partial"];
    const models = fakeCriticModels(() => ({
      verdict: verdicts[call++ % verdicts.length]!,
      reason: `r${call}`,
    }));
    const critic = createCritic({ models, judge: createJudge({ models, samples: 3 }) });
    const web: Task = { id: "w", domain: "web", question: "Who?", answer: "Ada Lovelace" };
    const result = await critic.reward(web, [{ trajectoryId: "a", finalAnswer: "Ada" }]);
    expect(result.rewards[0]).toMatchObject({ reward: 1, grade: "pass", method: "judge" });
    expect(result.rewards[0]?.reason).toMatch(/^correct \(correct 2, incorrect 1\)/);
    const second = await critic.reward(web, [{ trajectoryId: "b", finalAnswer: "Ada" }]);
    // partial 1, incorrect 1, correct 1: a three-way tie goes to the strictest verdict.
    expect(second.rewards[0]).toMatchObject({ reward: 0, grade: "fail" });
    expect(models.calls.every((c) => c.role === "judge" && c.name === "judge_verdict")).toBe(true);
  });

  it("throws when a required answer is missing or the task asks for a judge that is not there", async () => {
    const critic = createCritic({ models: fakeCriticModels(() => new Error("unused")) });
    const { answer: _answer, ...noAnswer } = task;
    await expect(critic.reward(noAnswer, [], { groundTruth: "required" })).rejects.toThrow(
      /task t1 has no ground-truth/,
    );
    await expect(critic.reward({ ...task, meta: { reward: "judge" } }, [])).rejects.toMatchObject({
      code: "invalid_config",
    });
  });

  it("uses a per-domain reward function and task.meta.reward", async () => {
    const critic = createCritic({
      models: fakeCriticModels(() => new Error("unused")),
      rewards: {
        web: (_task, answer) => ({
          reward: answer === "yes" ? 1 : 0,
          grade: answer === "yes" ? "pass" : "fail",
          extracted: answer,
          method: "mine",
        }),
      },
    });
    const web: Task = { id: "w", domain: "web", question: "Q", answer: "yes" };
    expect((await critic.reward(web, [{ trajectoryId: "a", finalAnswer: "yes" }])).rewards[0]?.method).toBe(
      "mine",
    );
    const exact = await critic.reward({ ...web, meta: { reward: "exact" } }, [
      { trajectoryId: "a", finalAnswer: "Yes." },
    ]);
    expect(exact.rewards[0]).toMatchObject({ method: "exact", reward: 1 });
  });
});

describe("critic.groupAdvice", () => {
  const request = (rewards: number[], extra: Record<string, unknown> = {}) => ({
    runId: "run-test",
    groupId: "group-1",
    task,
    trajectories: group(rewards),
    experiences,
    ...extra,
  });

  it("skips a homogeneous group without calling a model", async () => {
    const models = fakeCriticModels(() => new Error("must not be called"));
    const result = await createCritic({ models }).groupAdvice(request([1, 1, 1]));
    expect(result).toMatchObject({
      groupId: "group-1",
      proposals: [],
      summaries: [],
      skipped: expect.stringContaining("std = 0"),
    });
    expect(models.calls).toHaveLength(0);
  });

  it("summarizes each trajectory, then proposes at most 3 operations from comparing them", async () => {
    const models = fakeCriticModels((call) =>
      call.kind === "complete" ? summaryText(call.prompt) : advantageAnswer,
    );
    const result = await createCritic({ models }).groupAdvice(request([1, 0, 1, 0]));
    expect(result.skipped).toBeNull();
    expect(result.summaries.map((s) => [s.trajectoryId, s.reward])).toEqual([
      ["tr-0", 1],
      ["tr-1", 0],
      ["tr-2", 1],
      ["tr-3", 0],
    ]);
    expect(result.summaries[1]?.summary).toContain("ERROR");
    expect(result.proposals).toEqual([
      expect.objectContaining({
        proposalId: "group-1:P1",
        op: "modify",
        id: "G0",
        taskId: "t1",
        groupId: "group-1",
      }),
      expect.objectContaining({
        proposalId: "group-1:P2",
        op: "add",
        text: "Cross-check counts with a short enumeration in code.",
      }),
    ]);
    // 4 summaries + 1 advantage, all on the critic's own role.
    expect(models.calls.map((c) => `${c.role}:${c.kind}`)).toEqual([
      ...Array(4).fill("critic:complete"),
      "critic:structured",
    ]);
    const advantage = models.calls.at(-1)!.prompt;
    expect(advantage).toContain('<attempt index="2" reward="0">\nStep 1: Counted with code.\nStep 2: ERROR');
    expect(advantage).toContain("<groundtruth>8</groundtruth>");
    expect(result.usage).toMatchObject({ calls: 5, inputTokens: 50, outputTokens: 25 });
  });

  it("skips the group with a reason when a summary stays unusable, and when the advantage does", async () => {
    const unusable = new TfgrpoError("model_error", "critic (m): no answer after 3 attempts");
    const summaryFails = fakeCriticModels((call) =>
      call.prompt.includes("\\boxed{7}") ? unusable : summaryText(call.prompt),
    );
    const first = await createCritic({ models: summaryFails }).groupAdvice(request([1, 0]));
    expect(first.skipped).toBe("summary of trajectory tr-1 unusable: critic (m): no answer after 3 attempts");
    expect(first.proposals).toEqual([]);

    const advantageFails = fakeCriticModels((call) =>
      call.kind === "complete" ? summaryText(call.prompt) : { operations: "nope" },
    );
    const warnings: string[] = [];
    const second = await createCritic({
      models: advantageFails,
      logger: { warn: (message) => warnings.push(message) },
    }).groupAdvice(request([1, 0]));
    expect(second.skipped).toMatch(
      /^group advantage unusable: fake critic: no valid group_advantage: operations/,
    );
    expect(second.summaries).toHaveLength(2);
    expect(second.usage?.calls).toBe(3);
    expect(warnings).toContain("critic advantage unusable");
  });

  it("retries an empty summary once, then gives up on the group", async () => {
    let calls = 0;
    const models = fakeCriticModels((call) =>
      call.kind === "complete" ? (calls++ === 0 ? "  " : summaryText(call.prompt)) : advantageAnswer,
    );
    const result = await createCritic({ models, summaryConcurrency: 1 }).groupAdvice(request([1, 0]));
    expect(result.skipped).toBeNull();
    expect(models.calls.filter((c) => c.kind === "complete")).toHaveLength(3);

    const empty = fakeCriticModels((call) => (call.kind === "complete" ? "" : advantageAnswer));
    const skipped = await createCritic({ models: empty }).groupAdvice(request([1, 0]));
    expect(skipped.skipped).toMatch(/summary of trajectory tr-\d unusable: .*was empty 2 time/);
  });

  it("says why when every operation was dropped, and propagates bugs (not model errors)", async () => {
    const models = fakeCriticModels((call) =>
      call.kind === "complete"
        ? summaryText(call.prompt)
        : { operations: [{ option: "delete", experience_id: "G99", reason: "r" }] },
    );
    const result = await createCritic({ models }).groupAdvice(request([1, 0]));
    expect(result.skipped).toBe(
      "every proposed operation was dropped: delete names G99, which is not among the current experiences",
    );

    const broken = fakeCriticModels(() => new TypeError("bug"));
    await expect(createCritic({ models: broken }).groupAdvice(request([1, 0]))).rejects.toThrow("bug");
  });

  it("marks the pseudo-label as a majority vote in both prompts", async () => {
    const models = fakeCriticModels((call) =>
      call.kind === "complete" ? summaryText(call.prompt) : { operations: [] },
    );
    const result = await createCritic({ models }).groupAdvice(request([1, 0], { pseudoLabel: "8" }));
    expect(result.skipped).toBe("the critic proposed no operation");
    expect(models.calls.every((call) => call.prompt.includes("majority vote"))).toBe(true);
  });

  it("refuses a trajectory without a reward, naming it", async () => {
    const trajectories = group([1, 0]);
    delete trajectories[1]!.reward;
    const critic = createCritic({ models: fakeCriticModels(() => "") });
    await expect(critic.groupAdvice({ ...request([1, 0]), trajectories })).rejects.toThrow(
      "group group-1: trajectory tr-1 has no reward",
    );
  });
});
