import { describe, expect, it } from "vitest";
import type { GetExperiencesRequest, ReportOutcomeRequest } from "../schemas/served-library.js";
import { runAgentAttempt } from "./agent-attempt.js";
import { createExperienceRuns, failureReport, withPromptBlock } from "./experience-runs.js";
import { toRunOutcome } from "./run-outcome.js";

/** A library that records its calls (the boundary under test is the run bookkeeping, not the service). */
function recordingLibrary() {
  const calls = { selections: [] as GetExperiencesRequest[], reports: [] as ReportOutcomeRequest[] };
  return {
    calls,
    library: {
      getExperiences: async (request: GetExperiencesRequest) => {
        calls.selections.push(request);
        return {
          selectionId: `s${calls.selections.length}`,
          domain: request.domain,
          version: 1,
          entries: [{ id: "G0", text: "t", status: "active" as const, score: 1 }],
          explorationIds: [],
          promptBlock: "[G0]. t",
        };
      },
      reportOutcome: async (request: ReportOutcomeRequest) => {
        calls.reports.push(request);
        return {
          selectionId: request.selectionId,
          domain: "math",
          version: 1,
          reward: request.reward ?? 0,
          success: request.success ?? false,
          creditedIds: ["G0"],
          citedIds: [],
          reportedAt: "2026-12-01T00:00:00.000Z",
        };
      },
    },
  };
}

describe("createExperienceRuns", () => {
  it("selects from the library and reports a selection once: a second report gets the first reply", async () => {
    const { calls, library } = recordingLibrary();
    const runs = createExperienceRuns({ library: library as never, domain: "math", k: 3 });
    const selection = await runs.select("task text");
    expect(selection).toEqual({ selectionId: "s1", promptBlock: "[G0]. t", shownIds: ["G0"] });
    expect(calls.selections).toEqual([{ domain: "math", task: "task text", k: 3 }]);
    const first = await runs.report(selection, failureReport(new Error("boom")));
    const second = await runs.report(selection, { reward: 1, success: true });
    expect(second).toBe(first);
    expect(calls.reports).toHaveLength(1);
    expect(calls.reports[0]).toMatchObject({ success: false, reward: 0, feedback: "the run failed: boom" });
    expect(runs.reported(selection)).toBe(true);
  });

  it("inside an attempt takes tfgrpo's block, marks the attempt used and sends nothing", async () => {
    const { calls, library } = recordingLibrary();
    const runs = createExperienceRuns({ library: library as never, domain: "math" });
    const attempt = {
      taskId: "t",
      attempt: 2,
      promptBlock: "[G4]. offline",
      shownIds: ["G4"],
      seed: 3,
      temperature: 0.7,
      used: false,
    };
    const selection = await runAgentAttempt(attempt, () => runs.select("task"));
    expect(selection).toEqual({ selectionId: null, promptBlock: "[G4]. offline", shownIds: ["G4"] });
    expect(attempt.used).toBe(true);
    expect(await runs.report(selection, { reward: 1, success: true })).toBeNull();
    expect(calls).toEqual({ selections: [], reports: [] });
  });

  it("without a library refuses to serve, naming what to pass", async () => {
    const runs = createExperienceRuns({ domain: "math" });
    await expect(runs.select("task")).rejects.toMatchObject({ code: "invalid_config" });
  });
});

describe("toRunOutcome and withPromptBlock", () => {
  it("reads numbers, booleans and objects, and refuses a reward outside [0, 1]", () => {
    expect(toRunOutcome(true, "r")).toEqual({ reward: 1, success: true });
    expect(toRunOutcome(0.5, "r")).toEqual({ reward: 0.5, success: false });
    expect(toRunOutcome({ success: false, feedback: "f" }, "r")).toEqual({
      reward: 0,
      success: false,
      feedback: "f",
    });
    expect(() => toRunOutcome(2, "team's reward")).toThrow(/team's reward returned reward 2/);
    expect(() => toRunOutcome("yes" as never, "r")).toThrow(/return a number in \[0, 1\]/);
  });

  it("appends the block after the agent's prompt", () => {
    expect(withPromptBlock("You solve.", "[G0]. t")).toBe("You solve.\n\n[G0]. t");
    expect(withPromptBlock("You solve.", "")).toBe("You solve.");
    expect(withPromptBlock("", "[G0]. t")).toBe("[G0]. t");
  });
});

describe("createExperienceRuns' report hooks", () => {
  it("hands each reply to onReport once, and a failed report to onReportError instead of throwing", async () => {
    const { calls, library } = recordingLibrary();
    const replies: unknown[] = [];
    const runs = createExperienceRuns({
      library: library as never,
      domain: "math",
      onReport: (reply) => replies.push(reply),
    });
    const selection = await runs.select("task");
    await runs.finish(selection, true, "r", { trajectory: [{ role: "user", content: "task" }] });
    await runs.finish(selection, false, "r");
    expect(replies).toHaveLength(1);
    expect(calls.reports).toEqual([
      { selectionId: "s1", reward: 1, success: true, trajectory: [{ role: "user", content: "task" }] },
    ]);

    const errors: unknown[] = [];
    const unreachable = createExperienceRuns({
      library: { ...library, reportOutcome: async () => Promise.reject(new Error("down")) } as never,
      domain: "math",
      onReportError: (error) => errors.push(error),
    });
    const other = await unreachable.select("task");
    expect(await unreachable.fail(other, new Error("boom"))).toBeNull();
    expect(await unreachable.fail(other, new Error("again"))).toBeNull();
    expect(errors).toHaveLength(1);
  });

  it("fail reports nothing with reportFailures: false, or once the run is reported", async () => {
    const { calls, library } = recordingLibrary();
    const quiet = createExperienceRuns({ library: library as never, domain: "math", reportFailures: false });
    expect(await quiet.fail(await quiet.select("task"), new Error("boom"))).toBeNull();
    const runs = createExperienceRuns({ library: library as never, domain: "math" });
    const selection = await runs.select("task");
    await runs.finish(selection, 0.5, "r");
    await runs.fail(selection, new Error("late"));
    expect(calls.reports).toHaveLength(1);
    expect(calls.reports[0]).toMatchObject({ reward: 0.5, success: false });
  });
});

describe("createExperienceRuns' run scopes", () => {
  it("gives the model calls of one run one selection, each run its own, and reports a run that throws once", async () => {
    const { calls, library } = recordingLibrary();
    const runs = createExperienceRuns({ library: library as never, domain: "math" });
    expect(runs.selectInScope("task")).toBeUndefined();
    const modelCall = async () => {
      await Promise.resolve();
      return runs.selectInScope("task");
    };
    const [first, second] = await Promise.all([
      runs.run(async () => [await modelCall(), await modelCall()]),
      runs.run(async () => [await modelCall()]),
    ]);
    expect(first![0]).toBe(first![1]);
    expect(new Set([first![0]!.selectionId, second![0]!.selectionId])).toEqual(new Set(["s1", "s2"]));
    await expect(
      runs.run(async () => {
        await modelCall();
        throw new Error("a tool crashed");
      }),
    ).rejects.toThrow("a tool crashed");
    expect(calls.reports).toEqual([
      { selectionId: "s3", reward: 0, success: false, feedback: "the run failed: a tool crashed" },
    ]);
  });
});

describe("createExperienceRuns' outcomes after the run", () => {
  it("reports a finished run by its id with the messages it recorded, once; an unknown id without them", async () => {
    const { calls, library } = recordingLibrary();
    const runs = createExperienceRuns({ library: library as never, domain: "math" });
    const selection = await runs.select("task");
    runs.recordFinished(selection, [{ role: "user", content: "task" }]);
    const reply = await runs.reportById("s1", { reward: 0.25, feedback: "ticket T-3 still open" }, "later");
    expect(reply).toMatchObject({ selectionId: "s1", reward: 0.25, success: false });
    expect(await runs.reportById("s1", true, "again")).toBe(reply);
    await runs.reportById("s9", true, "elsewhere");
    expect(calls.reports).toEqual([
      {
        selectionId: "s1",
        reward: 0.25,
        success: false,
        feedback: "ticket T-3 still open",
        trajectory: [{ role: "user", content: "task" }],
      },
      { selectionId: "s9", reward: 1, success: true },
    ]);
    expect(await runs.reportById(null, true, "offline")).toBeNull();
    await expect(runs.reportById("s10", 3, "the team's check")).rejects.toThrow(
      /the team's check returned reward 3/,
    );
  });

  it("runs an outcome after the run without holding it up, reports it, and hands its errors on", async () => {
    const { calls, library } = recordingLibrary();
    const errors: unknown[] = [];
    const runs = createExperienceRuns({
      library: library as never,
      domain: "math",
      onReportError: (error) => errors.push(error),
    });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = await runs.select("task");
    runs.reportLater(
      first,
      ["m"],
      async () => {
        await gate;
        return { success: true };
      },
      "outcome",
    );
    const second = await runs.select("task");
    runs.reportLater(second, ["m"], () => undefined, "outcome");
    const third = await runs.select("task");
    runs.reportLater(
      third,
      ["m"],
      async () => {
        throw new Error("the database is down");
      },
      "outcome",
    );
    await Promise.resolve();
    expect(calls.reports).toEqual([]);
    release();
    await runs.settled();
    expect(calls.reports).toEqual([{ selectionId: "s1", reward: 1, success: true, trajectory: ["m"] }]);
    expect(errors.map((error) => (error as Error).message)).toEqual(["the database is down"]);
    // The run whose outcome was not known yet stays recorded for a report by id.
    await runs.reportById("s2", 0, "later");
    expect(calls.reports.at(-1)).toEqual({ selectionId: "s2", reward: 0, success: false, trajectory: ["m"] });
  });

  it("keeps nothing for offline attempts and reported runs", async () => {
    const { calls, library } = recordingLibrary();
    const runs = createExperienceRuns({ library: library as never, domain: "math" });
    const offline = { selectionId: null, promptBlock: "", shownIds: [] };
    let computed = false;
    runs.reportLater(
      offline,
      [],
      () => {
        computed = true;
        return true;
      },
      "outcome",
    );
    const selection = await runs.select("task");
    await runs.finish(selection, true, "reward");
    runs.reportLater(
      selection,
      [],
      () => {
        computed = true;
        return false;
      },
      "outcome",
    );
    await runs.settled();
    expect(computed).toBe(false);
    expect(calls.reports).toHaveLength(1);
  });
});
