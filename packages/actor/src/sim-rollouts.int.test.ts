// Rollouts against the sim world (packages/sim: a SIMULATED model behind a real OpenAI-compatible HTTP server) with
// the real tools: Python in the sandbox for math, search and fetch over the sim's local corpus for web.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import {
  type Experience,
  estimateTokens,
  type LibrarySnapshot,
  type RolloutRequest,
  type Task,
  type Trajectory,
} from "@tfgrpo/protocol";
import { makeExperience, type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer, createSuite, normalizeAnswer, type SimServer } from "@tfgrpo/sim";
import { loadLessonBank } from "@tfgrpo/sim/testing";
import { createToolResources, createToolset, type ToolResources } from "@tfgrpo/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Actor, createActor } from "./create-actor.js";
import { realExperiences } from "./testing/index.js";

const seed = 7;
let sim: SimServer;
let resources: ToolResources;
let directory: TemporaryDirectory | undefined;
let actor: Actor;
const libraries = new Map<string, LibrarySnapshot>();

/** The real library of a domain plus one good lesson per pitfall (from test-data/lesson-bank), so the policy cites. */
function libraryWithLessons(domain: "math" | "web"): Experience[] {
  const real = realExperiences(domain);
  const lessons = Object.values(loadLessonBank(domain).pitfalls).map((pitfall, index) =>
    makeExperience({
      id: `G${100 + index}`,
      text: pitfall.correct[0]!,
      domain,
      status: index === 0 ? "candidate" : "active",
    }),
  );
  return [...real, ...lessons];
}

beforeAll(async () => {
  sim = await createSimServer({ seed });
  directory = await temporaryDirectory("tfgrpo-actor-sim-");
  const corpus = path.join(directory.path, "corpus.jsonl");
  const response = await fetch(`${sim.corpusUrl}/documents.jsonl`);
  await writeFile(corpus, await response.text());
  resources = createToolResources({
    search: { provider: "local", path: corpus },
    fetch: { allowHosts: [new URL(sim.url).host] },
  });
  const models = createModels(
    parseModelsConfig({
      roles: {
        actor: {
          baseUrl: sim.url,
          model: "sim-actor",
          prices: { input: 0.4, cachedInput: 0.1, output: 1.6 },
        },
        embedder: { baseUrl: sim.url, model: "sim-embedder" },
      },
    }),
  );
  libraries.set("math@1", { domain: "math", version: 1, experiences: libraryWithLessons("math") });
  libraries.set("web@1", { domain: "web", version: 1, experiences: libraryWithLessons("web") });
  actor = createActor({
    models,
    tools: (domain, names) => createToolset({ domain, resources, tools: names }),
    library: async (domain, version) => libraries.get(`${domain}@${version}`) ?? null,
    embed: (texts) => models.embed(texts),
  });
});

afterAll(async () => {
  await resources?.close();
  await sim?.close();
  await directory?.[Symbol.asyncDispose]();
});

const rolloutOf = (task: Task, attempt: number, library: RolloutRequest["library"]): RolloutRequest => ({
  runId: "run-sim",
  task,
  groupId: `group-${task.id}`,
  attempt,
  library,
});

const correct = (trajectory: Trajectory, task: Task) =>
  trajectory.finalAnswer !== null &&
  normalizeAnswer(trajectory.finalAnswer) === normalizeAnswer(task.answer ?? "");

describe("actor in the sim world with real tools", () => {
  it("solves math tasks through real code execution and records what it cited", async () => {
    const tasks = createSuite({ domain: "math", seed, size: 6, split: "train" });
    const trajectories = await Promise.all(
      tasks.map((task, index) => actor.rollout(rolloutOf(task, index, { domain: "math", version: 1 }))),
    );
    for (const trajectory of trajectories) {
      expect(trajectory.stopReason, trajectory.error).toBe("answered");
      // The library (27 real entries + the sim lessons) is larger than the budget the actor and the curator share
      // (30 entries, 1,500 tokens): the most relevant entries that fit are shown, never more.
      expect(libraries.get("math@1")!.experiences.length).toBeGreaterThan(30);
      expect(trajectory.experiencesShown.length).toBeGreaterThan(0);
      expect(trajectory.experiencesShown.length).toBeLessThanOrEqual(30);
      expect(trajectory.messages[0]!.content).toContain("# Learned Experiences");
    }
    const executed = trajectories.flatMap((trajectory) => trajectory.toolCalls);
    expect(executed.length).toBeGreaterThan(0);
    expect(executed.every((call) => call.name === "code_interpreter")).toBe(true);
    // Python really ran: its stdout came back through the sandbox.
    expect(executed.some((call) => /"stdout":\s*"[^"]+/.test(call.output))).toBe(true);
    expect(
      trajectories.filter((trajectory, index) => correct(trajectory, tasks[index]!)).length,
    ).toBeGreaterThan(0);
    const cited = trajectories.flatMap((trajectory) => trajectory.experiencesCited);
    expect(cited.length).toBeGreaterThan(0);
    for (const trajectory of trajectories) {
      expect(trajectory.experiencesCited.every((id) => trajectory.experiencesShown.includes(id))).toBe(true);
    }
    expect(trajectories[0]!.usage.costUsd).toBeGreaterThan(0);
  });

  it("answers web tasks by searching and reading the local corpus", async () => {
    const tasks = createSuite({ domain: "web", seed, size: 4, split: "train" });
    const trajectories = await Promise.all(
      tasks.map((task, index) => actor.rollout(rolloutOf(task, index, { domain: "web", version: 1 }))),
    );
    for (const trajectory of trajectories) expect(trajectory.stopReason, trajectory.error).toBe("answered");
    const names = new Set(
      trajectories.flatMap((trajectory) => trajectory.toolCalls.map((call) => call.name)),
    );
    expect(names).toEqual(new Set(["web_search", "web_fetch"]));
    const searches = trajectories.flatMap((trajectory) =>
      trajectory.toolCalls.filter((call) => call.name === "web_search"),
    );
    expect(searches.some((call) => /https?:\/\//.test(call.output))).toBe(true);
    expect(
      trajectories.filter((trajectory, index) => correct(trajectory, tasks[index]!)).length,
    ).toBeGreaterThan(0);
  });

  it("shows exactly the retrieved entries of a large library, within budget, in id order, with a stable prefix", async () => {
    const base = libraryWithLessons("math");
    const big: Experience[] = Array.from({ length: 2000 }, (_, index) => {
      const source = base[index % base.length]!;
      return {
        ...source,
        id: `G${index}`,
        text: `${source.text} (variant ${Math.floor(index / base.length)})`,
      };
    });
    libraries.set("math@2", { domain: "math", version: 2, experiences: big });
    const tasks = createSuite({ domain: "math", seed, size: 3, split: "val" });
    const trajectories: Trajectory[] = [];
    for (const [index, task] of tasks.entries()) {
      const request = rolloutOf(task, index, { domain: "math", version: 2 });
      const prepared = await actor.preparePrompt(request);
      const trajectory = await actor.rollout(request);
      trajectories.push(trajectory);
      expect(prepared.selection.mode).toBe("top-k");
      expect(prepared.selection.tokens).toBeLessThanOrEqual(1500);
      const system = trajectory.messages[0]!.content;
      expect(system).toBe(prepared.system);
      const start = system.indexOf("# Learned Experiences");
      const block = system.slice(start, system.indexOf("\n\n", start));
      expect(estimateTokens(block)).toBeLessThanOrEqual(1500);
      const ids = [...block.matchAll(/^\[(G\d+)\]\. /gm)].map((match) => match[1]!);
      expect(ids).toEqual(trajectory.experiencesShown);
      expect(ids.map((id) => Number(id.slice(1)))).toEqual(
        [...ids.map((id) => Number(id.slice(1)))].sort((a, b) => a - b),
      );
      expect(trajectory.experiencesCited.every((id) => ids.includes(id))).toBe(true);
    }
    // Different tasks retrieve different entries...
    expect(
      new Set(trajectories.map((trajectory) => trajectory.experiencesShown.join(" "))).size,
    ).toBeGreaterThan(1);
    // ...while with a small library (within the budget) every task gets the same system prompt, which the provider
    // caches.
    libraries.set("math@3", { domain: "math", version: 3, experiences: base.slice(0, 15) });
    const [first, second] = createSuite({ domain: "math", seed, size: 2, split: "test" });
    const a = await actor.rollout(rolloutOf(first!, 0, { domain: "math", version: 3 }));
    const b = await actor.rollout(rolloutOf(second!, 0, { domain: "math", version: 3 }));
    expect(a.messages[0]!.content).toBe(b.messages[0]!.content);
    expect(b.usage.cachedInputTokens).toBeGreaterThan(0);
  });

  it("runs without a library and in direct mode", async () => {
    const [task] = createSuite({ domain: "math", seed, size: 1, split: "val" });
    const direct = await actor.rollout({ ...rolloutOf(task!, 0, null), mode: "direct" });
    expect(direct).toMatchObject({ stopReason: "answered", experiencesShown: [], toolCalls: [] });
    expect(direct.messages[0]!.content).not.toContain("# Learned Experiences");
  });
});
