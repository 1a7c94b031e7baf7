import { type Operation, TfgrpoError } from "@tfgrpo/protocol";
import { createStore, type Store } from "@tfgrpo/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLibraryService } from "./in-process-library-service.js";
import type { LibraryService } from "./library-service.js";

const add = (text: string, extra: Partial<Extract<Operation, { op: "add" }>> = {}): Operation => ({
  op: "add",
  text,
  reason: "test",
  ...extra,
});

async function rejected(promise: Promise<unknown>, code: string): Promise<TfgrpoError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (caught: unknown) => caught,
  );
  expect(TfgrpoError.isInstance(error), String(error)).toBe(true);
  expect((error as TfgrpoError).code, (error as Error).message).toBe(code);
  return error as TfgrpoError;
}

describe("in-process library service", () => {
  let store: Store;
  let service: LibraryService;
  let ids: number;
  /** Every selected entry shown (exposure off): the selection itself, before any arm is drawn. */
  let plain: LibraryService;
  beforeEach(async () => {
    store = await createStore(":memory:");
    ids = 0;
    const options = {
      store,
      generateId: () => `sel-${ids++}`,
      redact: (text: string) => text.replaceAll("sk-live-123456789", "[REDACTED]"),
      statsMaxAgeMs: 0,
    };
    service = createLibraryService(options);
    plain = createLibraryService({ ...options, exposure: false });
  });
  afterEach(async () => {
    await store.close();
  });

  it("serves an empty selection from a domain without a library, and takes its outcome", async () => {
    const reply = await service.getExperiences({ domain: "math", task: "What is 2+2?" });
    expect(reply).toEqual({
      selectionId: "sel-0",
      domain: "math",
      version: null,
      entries: [],
      explorationIds: [],
      promptBlock: "",
    });
    const outcome = await service.reportOutcome({ selectionId: "sel-0", success: false });
    expect(outcome).toMatchObject({ reward: 0, success: false, creditedIds: [], version: null });
    expect(await store.countOutcomes("math")).toMatchObject({ served: 1, reported: 1, successes: 0 });
  });

  it("refuses a report past the report deadline: the selection counts as no report, never as a failure", async () => {
    let clock = new Date("2026-03-01T10:00:00.000Z");
    const timed = createLibraryService({
      store,
      generateId: () => `late-${ids++}`,
      reportDeadlineMs: 60 * 60 * 1000,
      now: () => clock,
    });
    const late = await timed.getExperiences({ domain: "math", task: "What is 2+2?" });
    const onTime = await timed.getExperiences({ domain: "math", task: "What is 3+3?" });
    clock = new Date("2026-03-01T10:30:00.000Z");
    await timed.reportOutcome({ selectionId: onTime.selectionId, success: true });
    clock = new Date("2026-03-01T11:00:00.001Z");
    const error = await rejected(
      timed.reportOutcome({ selectionId: late.selectionId, success: false }),
      "conflict",
    );
    expect(error.message).toContain("within its report deadline (1 h)");
    expect(await store.outcomeStats("math", { now: clock, reportDeadlineMs: 60 * 60 * 1000 })).toMatchObject({
      served: 2,
      reported: 1,
      successes: 1,
      noReport: 1,
    });
  });

  it("shows the actor's selection plus a candidate, in a prompt block that repeats byte for byte", async () => {
    await store.applyOperations(
      "math",
      [
        add("Check units before answering.", { status: "active" }),
        add("Enumerate small cases with code first.", { status: "active" }),
        add("Try the answer in the original equation.", { status: "candidate" }),
      ],
      { parent: null, state: "committed" },
    );
    const first = await plain.getExperiences({ domain: "math", task: "Solve x^2 = 4." });
    expect(first.version).toBe(1);
    expect(first.entries.map((e) => [e.id, e.exploration])).toEqual([
      ["G0", false],
      ["G1", false],
      ["G2", true],
    ]);
    expect(first.explorationIds).toEqual(["G2"]);
    expect(first.promptBlock).toBe(
      [
        "# Learned Experiences",
        "Use these learned experiences to guide your reasoning where they apply:",
        "[G0]. Check units before answering.",
        "[G1]. Enumerate small cases with code first.",
        "[G2]. Try the answer in the original equation.",
      ].join("\n"),
    );
    const again = await plain.getExperiences({ domain: "math", task: "Solve x^2 = 4." });
    expect(again.selectionId).not.toBe(first.selectionId);
    expect(again.promptBlock).toBe(first.promptBlock);
    const recorded = (await store.getSelection(first.selectionId))!.selection;
    expect(recorded).toMatchObject({ version: 1, entryIds: ["G0", "G1", "G2"], explorationIds: ["G2"] });
    // k cuts proven entries first: the exploration slot stays.
    const one = await plain.getExperiences({ domain: "math", task: "Solve x^2 = 4.", k: 1 });
    expect(one.entries.map((e) => e.id)).toEqual(["G2"]);
  });

  it("forces a candidate in even when it lost its conflict group to a proven entry (one per group still holds)", async () => {
    await store.applyOperations(
      "math",
      [
        add("Prefer exact fractions.", { status: "active", conflictGroup: "numbers" }),
        add("Prefer decimals.", { status: "candidate", conflictGroup: "numbers" }),
        add("Check units.", { status: "active" }),
      ],
      { parent: null, state: "committed" },
    );
    // The proven entry has a strong record, the candidate a poor one: the actor's index keeps the proven one.
    await store.updateStats("math", [
      { id: "G0", shown: 50, success: 45 },
      { id: "G1", shown: 10, success: 1 },
      { id: "G2", shown: 50, success: 30 },
    ]);
    const reply = await plain.getExperiences({ domain: "math", task: "Add 1/3 and 1/6." });
    expect(reply.entries.map((e) => e.id)).toEqual(["G1", "G2"]);
    expect(reply.explorationIds).toEqual(["G1"]);
  });

  it("serves a pinned version, refuses unknown and rejected ones", async () => {
    await store.applyOperations("math", [add("First lesson.", { status: "active" })], {
      parent: null,
      state: "committed",
    });
    await store.applyOperations("math", [add("Second lesson.", { status: "active" })], {
      parent: 1,
      state: "committed",
    });
    await store.applyOperations("math", [add("Bad lesson.", { status: "active" })], {
      parent: 2,
      state: "proposed",
    });
    await store.setVersionState("math", 3, "rejected");
    expect((await service.getExperiences({ domain: "math", task: "t" })).entries.map((e) => e.id)).toEqual([
      "G0",
      "G1",
    ]);
    const pinned = await service.getExperiences({ domain: "math", task: "t", version: 1 });
    expect(pinned).toMatchObject({ version: 1, entries: [{ id: "G0", text: "First lesson." }] });
    expect((await store.getSelection(pinned.selectionId))!.selection.meta).toEqual({ pinned: true });
    const missing = await rejected(
      service.getExperiences({ domain: "math", task: "t", version: 9 }),
      "not_found",
    );
    expect(missing.message).toBe("library math has no version 9");
    const bad = await rejected(
      service.getExperiences({ domain: "math", task: "t", version: 3 }),
      "invalid_input",
    );
    expect(bad.message).toContain("math@v3 was rejected");
    // A proposed version (a canary being decided) is pinned only on purpose.
    await store.applyOperations("math", [add("Maybe lesson.", { status: "candidate" })], {
      parent: 2,
      state: "proposed",
    });
    const unasked = await rejected(
      service.getExperiences({ domain: "math", task: "t", version: 4 }),
      "invalid_input",
    );
    expect(unasked.message).toContain("math@v4 is proposed");
    expect(
      await service.getExperiences({ domain: "math", task: "t", version: 4, allowProposed: true }),
    ).toMatchObject({ version: 4 });
    await store.setVersionState("math", 4, "rejected");
    const { snapshot, info } = await service.getLibrary({ domain: "math", version: 1 });
    expect([snapshot.experiences.length, info.state]).toEqual([1, "committed"]);
    expect((await service.listVersions("math")).map((v) => v.state)).toEqual([
      "committed",
      "committed",
      "rejected",
      "rejected",
    ]);
  });

  it("takes an outcome once, credits the shown entries, extracts citations and redacts secrets", async () => {
    await store.applyOperations(
      "math",
      [add("Check units.", { status: "active" }), add("Draw a picture.", { status: "active" })],
      { parent: null, state: "committed" },
    );
    const { selectionId } = await service.getExperiences({
      domain: "math",
      task: "key sk-live-123456789 here",
    });
    const reply = await service.reportOutcome({
      selectionId,
      reward: 0.8,
      summary: "Following [G1] the answer came out right; the key was sk-live-123456789.",
      feedback: "good",
    });
    expect(reply).toMatchObject({ reward: 0.8, success: true, creditedIds: ["G0", "G1"], citedIds: ["G1"] });
    const stored = (await store.getSelection(selectionId))!;
    expect(stored.selection.task).toBe("key [REDACTED] here");
    expect(stored.outcome!.summary).not.toContain("sk-live-123456789");
    const head = (await store.getHead("math"))!;
    expect(head.experiences.map((e) => e.stats.shown)).toEqual([1, 1]);

    const twice = await rejected(service.reportOutcome({ selectionId, success: true }), "conflict");
    expect(twice.message).toContain(`selection ${selectionId} was already reported`);
    await rejected(service.reportOutcome({ selectionId: "made-up", success: true }), "not_found");
    const args = await rejected(service.reportOutcome({ selectionId } as never), "invalid_input");
    expect(args.message).toBe("report_outcome: reward: give reward (0..1) or success (true/false)");
    const range = await rejected(service.reportOutcome({ selectionId, reward: 7 }), "invalid_input");
    expect(range.message).toMatch(/^report_outcome: reward: /);
    const domain = await rejected(service.getExperiences({ domain: "Math!", task: "t" }), "invalid_input");
    expect(domain.message).toMatch(/^get_experiences: domain: /);
    expect((await store.getHead("math"))!.experiences.map((e) => e.stats.shown)).toEqual([1, 1]);
  });

  it("varies the uncertain entries per request: each shown or withheld by a coin, both arms and the stratum recorded", async () => {
    await store.applyOperations(
      "math",
      [
        add("Check units before answering.", { status: "active" }),
        add("Try the answer in the original equation.", { status: "candidate" }),
        add("Prefer exact fractions.", { status: "probation" }),
      ],
      { parent: null, state: "committed" },
    );
    const arms = { G1: [0, 0], G2: [0, 0] } as Record<string, [shown: number, withheld: number]>;
    let activeVaried = 0;
    for (let i = 0; i < 60; i++) {
      const reply = await service.getExperiences({
        domain: "math",
        task: `Solve ${i}x = 4.`,
        family: "linear",
      });
      const { selection } = (await store.getSelection(reply.selectionId))!;
      const withheld = selection.withheldIds ?? [];
      expect(reply.explorationIds).toEqual(selection.explorationIds);
      expect(selection.stratum).toBe("family:linear");
      for (const id of ["G1", "G2"]) {
        // The candidate and the probation entry are always varied: in exactly one arm.
        expect(reply.explorationIds.includes(id) !== withheld.includes(id)).toBe(true);
        arms[id]![reply.explorationIds.includes(id) ? 0 : 1]++;
      }
      if (reply.explorationIds.includes("G0") || withheld.includes("G0")) activeVaried++;
      // What is withheld is not in the prompt; the block lists exactly what was shown.
      for (const id of withheld) expect(reply.promptBlock).not.toContain(`[${id}]`);
      expect(reply.entries.map((e) => e.id)).toEqual(selection.entryIds);
    }
    for (const [shown, withheld] of Object.values(arms)) {
      expect(shown).toBeGreaterThan(15);
      expect(withheld).toBeGreaterThan(15);
    }
    // An active entry without evidence yet is varied within the exposure budget (a third of the requests by default),
    // shown in the others.
    expect(activeVaried).toBeGreaterThan(8);
    expect(activeVaried).toBeLessThan(35);
  });

  it("a report with only a reward counts as success from the threshold on; no global baseline is kept", async () => {
    await store.applyOperations("math", [add("Check units.", { status: "active" })], {
      parent: null,
      state: "committed",
    });
    const a = await service.getExperiences({ domain: "math", task: "a" });
    const b = await service.getExperiences({ domain: "math", task: "b" });
    expect((await service.reportOutcome({ selectionId: a.selectionId, reward: 0.4 })).success).toBe(false);
    expect((await service.reportOutcome({ selectionId: b.selectionId, reward: 0.5 })).success).toBe(true);
    // An outcome is never compared with a rolling mean of the traffic (that follows the traffic, not the lesson):
    // the shared counters add up, the delta stays 0, and credit comes from contrasts only.
    expect((await store.getHead("math"))!.experiences[0]!.stats).toMatchObject({
      shown: 2,
      success: 0.9,
      sumDelta: 0,
    });
  });
});
