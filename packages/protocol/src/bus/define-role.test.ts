import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TfgrpoError } from "../errors.js";
import { actorRollout, criticAdvantage, criticReward } from "../subjects.js";
import { eventually } from "../testing/bus-contract.js";
import type { JobResult } from "./bus.js";
import { defineRole, type EndpointContext } from "./define-role.js";
import { createInProcessBus } from "./in-process-bus.js";
import { defineSubject } from "./subject.js";

const task = { id: "t1", domain: "math", question: "1 + 1?" };
const echoJob = defineSubject(
  "tfgrpo.echo.job",
  z.object({ text: z.string() }),
  z.object({ text: z.string(), mode: z.string() }),
  { modes: ["job"] },
);
const echoCall = defineSubject(
  "tfgrpo.echo.call",
  z.object({ text: z.string() }),
  z.object({ text: z.string() }),
);

describe("defineRole", () => {
  it("serves every endpoint of a role from the subject table, as request/reply where the table says so", async () => {
    const bus = createInProcessBus();
    const role = defineRole("critic", {
      reward: async ({ trajectoryIds }) => ({
        rewards: trajectoryIds.map((trajectoryId) => ({
          trajectoryId,
          reward: 1,
          grade: "pass" as const,
          extracted: "2",
          method: "exact",
        })),
      }),
      advantage: async ({ groupId }) => ({ groupId, summaries: [], proposals: [], skipped: "homogeneous" }),
    });
    expect(role.name).toBe("critic");
    expect(role.endpoints.map(({ subject, mode }) => `${subject.name} ${mode}`)).toEqual([
      "tfgrpo.critic.reward request",
      "tfgrpo.critic.advantage request",
    ]);
    const handle = await role.serve(bus);
    await expect(
      bus.request(criticReward, { task, groupId: "g1", trajectoryIds: ["a"] }),
    ).resolves.toMatchObject({ rewards: [{ trajectoryId: "a", reward: 1 }] });
    await expect(
      bus.request(criticAdvantage, {
        runId: "r",
        groupId: "g1",
        task,
        trajectoryIds: [],
        library: null,
      }),
    ).resolves.toEqual({ groupId: "g1", summaries: [], proposals: [], skipped: "homogeneous" });
    await handle.close();
    await expect(bus.request(criticReward, { task, groupId: "g1", trajectoryIds: [] })).rejects.toSatisfy(
      (error) => TfgrpoError.hasCode(error, "not_found"),
    );
    await bus.close();
  });

  it("serves a subject in each of its modes, telling the handler which, unless the role keeps to some", () => {
    const rollout = async () => {
      throw new Error("not called");
    };
    const both = defineRole("actor", { rollout });
    expect(both.endpoints.map(({ subject, mode }) => `${subject.name} ${mode}`)).toEqual([
      "tfgrpo.actor.rollout job",
      "tfgrpo.actor.rollout request",
    ]);
    expect(actorRollout.modes).toEqual(["job", "request"]);
    const jobsOnly = defineRole("actor", { rollout }, { modes: ["job"], concurrency: 3 });
    expect(jobsOnly.endpoints).toEqual([expect.objectContaining({ mode: "job", concurrency: 3 })]);
  });

  it("gives job handlers the job's id, attempt and heartbeat, and request handlers the mode only", async () => {
    const bus = createInProcessBus();
    const seen: EndpointContext[] = [];
    const role = defineRole(
      "echo",
      {
        job: async ({ text }, context) => {
          seen.push(context);
          if (context.mode === "job") context.working();
          return { text, mode: context.mode };
        },
        call: async ({ text }, context) => {
          seen.push(context);
          return { text: text.toUpperCase() };
        },
      },
      { subjects: { job: echoJob, call: echoCall } },
    );
    const handle = await role.serve(bus);
    await expect(bus.request(echoCall, { text: "hi" })).resolves.toEqual({ text: "HI" });
    const results: JobResult<{ text: string; mode: string }>[] = [];
    await bus.consumeResults(echoJob, "run", async (result) => {
      results.push(result);
    });
    await bus.enqueue(echoJob, [{ id: "j1", input: { text: "x" } }], { replyTo: "run" });
    await eventually("the job's result", () => results.length === 1);
    expect(results[0]).toEqual({ jobId: "j1", ok: true, output: { text: "x", mode: "job" }, attempt: 1 });
    expect(seen.map((context) => context.mode)).toEqual(["request", "job"]);
    expect(seen[1]).toMatchObject({ mode: "job", jobId: "j1", attempt: 1 });
    await handle.close();
    await bus.close();
  });

  it("fails at definition when a handler is missing, an operation is unknown or a subject is misnamed", () => {
    const advantage = async () => ({ groupId: "g", summaries: [], proposals: [], skipped: null });
    expect(() => defineRole("critic", { advantage } as never)).toThrow(
      /role "critic" serves reward, advantage; no handler for reward/,
    );
    expect(() => defineRole("critic", { advantage, reward: advantage, score: advantage } as never)).toThrow(
      /no such endpoint: score/,
    );
    expect(() => defineRole("nosuch" as never, {} as never)).toThrow(
      /role "nosuch" is not in the subject table/,
    );
    expect(() =>
      defineRole("echo", { talk: async () => ({ text: "" }) }, { subjects: { talk: echoCall } }),
    ).toThrow(/endpoint "talk" must be the subject tfgrpo\.echo\.talk, got tfgrpo\.echo\.call/);
  });
});
