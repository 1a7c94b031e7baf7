import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { Task } from "@tfgrpo/protocol";
import { TfgrpoError } from "@tfgrpo/protocol";
import { makeTask, type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answersEquivalent } from "../math/answers-equivalent.js";
import { createContainsMatchReward } from "./contains-match-reward.js";
import { createExactMatchReward } from "./exact-match-reward.js";
import { loadRewardFunction } from "./load-reward-function.js";
import { majorityVote } from "./majority-vote.js";
import { createMathReward } from "./math-reward.js";

const task = (answer?: string, domain = "web"): Task =>
  makeTask({ id: "t1", domain, question: "Who?", answer });

describe("exact and contains matching", () => {
  it("matches exactly after normalization, using the boxed part when there is one", async () => {
    const exact = createExactMatchReward();
    expect(await exact(task("Paris"), "  paris. ")).toMatchObject({
      reward: 1,
      grade: "pass",
      method: "exact",
    });
    expect(await exact(task("Paris"), "It is \\boxed{\\text{Paris}}")).toMatchObject({
      reward: 1,
      extracted: "\\text{Paris}",
    });
    expect(await exact(task("Paris"), "The capital is Paris")).toMatchObject({ reward: 0, grade: "fail" });
    expect(await createExactMatchReward({ caseSensitive: true })(task("Paris"), "paris")).toMatchObject({
      reward: 0,
    });
    expect(await exact(task("Paris"), null)).toMatchObject({
      reward: 0,
      extracted: null,
      reason: "no answer",
    });
  });

  it("finds the gold answer as whole words inside a sentence, with alternatives", async () => {
    const contains = createContainsMatchReward();
    expect(await contains(task("Marie Curie"), "It was **Marie Curie**, in 1903.")).toMatchObject({
      reward: 1,
    });
    expect(await contains(task("5"), "There were 15 of them")).toMatchObject({ reward: 0 });
    expect(await contains(task("3.5"), "about 3.5 km")).toMatchObject({ reward: 1 });
    expect(await contains(task("NYC|New York City"), "in new york city")).toMatchObject({
      reward: 1,
      reason: 'contains "new york city"',
    });
  });

  it("refuses to score without ground truth, naming the task", () => {
    expect(() => createExactMatchReward()(task(), "x")).toThrow(
      /task t1: exact matching needs a ground-truth/,
    );
    expect(() => createMathReward()(task(undefined, "math"), "x")).toThrow(TfgrpoError);
  });
});

describe("majorityVote", () => {
  const math = (a: string, b: string) => answersEquivalent(a, b).score >= 1;

  it("clusters equivalent answers and picks the largest cluster", () => {
    expect(majorityVote(["0.5", "\\frac{1}{2}", "3", null, "1/2"], math)).toEqual({
      label: "0.5",
      count: 3,
      voters: 4,
      tie: false,
    });
  });

  it("breaks ties by first appearance and says so", () => {
    expect(majorityVote(["2", "3", "3", "2"], math)).toMatchObject({ label: "2", count: 2, tie: true });
  });

  it("has no label when no one answered", () => {
    expect(majorityVote([null, "  "], math)).toEqual({ label: null, count: 0, voters: 0, tie: false });
  });
});

describe("loadRewardFunction", () => {
  let dir: TemporaryDirectory;
  beforeAll(async () => {
    dir = await temporaryDirectory("tfgrpo-reward-module-");
  });
  afterAll(() => dir[Symbol.asyncDispose]());
  const write = async (name: string, source: string) => {
    const file = path.join(dir.path, name);
    await writeFile(file, source);
    return file;
  };

  it("loads a TS module returning numbers or objects, sync or async", async () => {
    const file = await write(
      "graded.ts",
      `export default async (task: { answer?: string }, answer: string | null, trajectory?: { id: string }) => {
         if (answer === task.answer) return 1;
         if (answer?.startsWith(task.answer ?? "?")) return { reward: 0.5, reason: "prefix", extracted: "p" };
         return trajectory ? { reward: 0, grade: "fail", reason: trajectory.id } : 0;
       };`,
    );
    const fn = await loadRewardFunction(file);
    expect(await fn(task("abc"), "abc")).toEqual({
      reward: 1,
      grade: "pass",
      extracted: "abc",
      method: "module:graded.ts",
    });
    expect(await fn(task("abc"), "abcd")).toMatchObject({
      reward: 0.5,
      grade: "partial",
      reason: "prefix",
      extracted: "p",
    });
    const trajectory = { id: "tr-9" } as never;
    expect(await fn(task("abc"), "x", trajectory)).toMatchObject({ reward: 0, reason: "tr-9" });
  });

  it("loads a CommonJS module", async () => {
    const file = await write(
      "plain.cjs",
      "module.exports = (task, answer) => (answer === task.answer ? 1 : 0);",
    );
    expect(await (await loadRewardFunction(file))(task("a"), "a")).toMatchObject({ reward: 1 });
  });

  it("validates what the function returns, naming module, task and field", async () => {
    const file = await write(
      "bad.mjs",
      "export default (task, answer) => (answer === 'big' ? 1.5 : { score: 1 });",
    );
    const fn = await loadRewardFunction(file);
    await expect(fn(task("a"), "big")).rejects.toThrow(/bad\.mjs returned 1\.5 for task t1: .*at most 1/);
    await expect(fn(task("a"), "x")).rejects.toMatchObject({ code: "invalid_config" });
  });

  it("reports a function that throws, a missing file and a missing default export", async () => {
    const throwing = await write("throws.mjs", "export default () => { throw new Error('boom'); };");
    await expect((await loadRewardFunction(throwing))(task("a"), "a")).rejects.toThrow(
      /throws\.mjs threw on task t1: boom/,
    );
    await expect(loadRewardFunction(path.join(dir.path, "absent.ts"))).rejects.toMatchObject({
      code: "not_found",
    });
    const named = await write("named.mjs", "export const reward = () => 1;");
    await expect(loadRewardFunction(named)).rejects.toThrow(/default export must be a function/);
    const broken = await write("broken.mjs", "export default (;");
    await expect(loadRewardFunction(broken)).rejects.toThrow(/cannot import it/);
  });
});
