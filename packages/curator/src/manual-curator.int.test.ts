import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore, type Store } from "@tfgrpo/store";
import { expectTfgrpoError } from "@tfgrpo/store/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createManualCurator, type ManualCurator } from "./manual-curator.js";
import { createScriptedModels } from "./testing/scripted-models.js";

let store: Store;
let curator: ManualCurator;
let dispose: () => Promise<void>;

beforeEach(async () => {
  const directory = await temporaryDirectory("tfgrpo-manual-curator-");
  store = await createStore(path.join(directory.path, "studio.db"));
  dispose = async () => {
    await store.close();
    await directory[Symbol.asyncDispose]();
  };
  curator = createManualCurator({ store, now: () => new Date("2026-03-01T00:00:00Z") });
  await store.applyOperations(
    "math",
    [
      {
        op: "add",
        text: "When a fraction appears, reduce it to lowest terms before comparing.",
        status: "active",
        reason: "seed",
      },
      {
        op: "add",
        text: "When the question asks for a percentage, answer with the percent sign.",
        status: "candidate",
        reason: "seed",
      },
      {
        op: "add",
        text: "When dividing by a variable, check that the variable can be zero.",
        reason: "seed",
      },
    ],
    { parent: null, state: "committed" },
  );
});
afterEach(() => dispose());

describe("manual curator", () => {
  it("approves a candidate as a committed version whose reason is the person's note", async () => {
    const result = await curator.apply({
      domain: "math",
      expectedHead: 1,
      note: "seen it work on three tasks",
      author: "studio",
      action: { kind: "approve", id: "G1" },
    });
    expect(result.version).toMatchObject({ version: 2, parent: 1, state: "committed" });
    expect(result.version.message).toBe("studio: approve: seen it work on three tasks");
    const head = await store.getHead("math");
    const entry = head!.experiences.find((e) => e.id === "G1")!;
    expect(entry.status).toBe("active");
    expect(entry.history.at(-1)).toMatchObject({
      from: "candidate",
      to: "active",
      reason: "seen it work on three tasks",
    });
  });

  it("refuses an edit over the word limit, and a lifecycle move the curator does not allow, writing nothing", async () => {
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const error = await expectTfgrpoError(
      curator.apply({
        domain: "math",
        expectedHead: 1,
        note: "",
        action: { kind: "edit", id: "G0", text: long },
      }),
      "invalid_operations",
    );
    expect(error.message).toContain("the lesson has 40 words; the limit is 32");
    await expectTfgrpoError(
      curator.apply({ domain: "math", expectedHead: 1, note: "", action: { kind: "approve", id: "G0" } }),
      "invalid_operations",
    );
    expect(await store.getHeadVersion("math")).toBe(1);
  });

  it("refuses an action made on a stale head with 'the library changed, reload' and overwrites nothing", async () => {
    await curator.apply({
      domain: "math",
      expectedHead: 1,
      note: "first",
      action: {
        kind: "edit",
        id: "G0",
        text: "When a fraction appears, reduce it fully before comparing it.",
      },
    });
    const error = await expectTfgrpoError(
      curator.apply({
        domain: "math",
        expectedHead: 1,
        note: "second",
        action: {
          kind: "edit",
          id: "G0",
          text: "When fractions appear, simplify them before any comparison.",
        },
      }),
      "conflict",
    );
    expect(error.message).toMatch(/^the library changed, reload: math is now at v2/);
    const head = await store.getHead("math");
    expect(head!.experiences.find((e) => e.id === "G0")!.text).toBe(
      "When a fraction appears, reduce it fully before comparing it.",
    );
  });

  it("puts a contradicting edit into a conflict group, then resolves the group for the entry a person keeps", async () => {
    await store.applyOperations(
      "math",
      [
        {
          op: "add",
          text: "When a fraction appears, always reduce it before comparing values.",
          reason: "seed",
        },
      ],
      { parent: 1, state: "committed" },
    );
    const edited = await curator.apply({
      domain: "math",
      expectedHead: 2,
      note: "try the opposite",
      action: {
        kind: "edit",
        id: "G0",
        text: "When a fraction appears, never reduce it before comparing values.",
      },
    });
    const group = edited.conflicts.groups[0]?.name;
    expect(group, edited.notes.join("\n")).toBeDefined();
    const flagged = (await store.getHead("math"))!.experiences.filter((e) => e.conflictGroup === group);
    expect(flagged.map((e) => e.id).sort()).toEqual(["G0", "G3"]);

    const resolved = await curator.apply({
      domain: "math",
      expectedHead: 3,
      note: "reducing first is right",
      action: { kind: "resolve-conflict", group: group!, keep: "G3" },
    });
    expect(resolved.version.version).toBe(4);
    const head = (await store.getHead("math"))!.experiences;
    expect(head.find((e) => e.id === "G3")).toMatchObject({ status: "candidate" });
    expect(head.find((e) => e.id === "G3")!.conflictGroup).toBeUndefined();
    expect(head.find((e) => e.id === "G0")!.status).toBe("archived");
  });

  it("merges two entries within the word limit and rolls back to an older version", async () => {
    const merged = await curator.apply({
      domain: "math",
      expectedHead: 1,
      note: "same advice",
      action: {
        kind: "merge",
        ids: ["G0", "G2"],
        text: "When fractions or divisions by a variable appear, reduce fractions and check the divisor is not zero.",
      },
    });
    expect(merged.createdIds).toEqual(["G3"]);
    const back = await curator.rollback({
      domain: "math",
      expectedHead: 2,
      toVersion: 1,
      note: "merge was wrong",
    });
    expect(back).toMatchObject({ version: 3, state: "committed" });
    const head = (await store.getHead("math"))!.experiences.filter((e) => e.status !== "archived");
    expect(head.map((e) => e.id).sort()).toEqual(["G0", "G1", "G2"]);
    const stale = await curator
      .rollback({ domain: "math", expectedHead: 2, toVersion: 1, note: "" })
      .catch((e) => e);
    expect(TfgrpoError.hasCode(stale, "conflict")).toBe(true);
  });

  it("asks the curator model about similar entries when it has one, and says plainly when it has none", async () => {
    const text = "When dividing by a variable, check first that the variable cannot be zero.";
    const without = await curator.apply({
      domain: "math",
      expectedHead: 1,
      note: "",
      action: { kind: "edit", id: "G0", text },
    });
    expect(without.conflicts.modelChecks).toBe(0);
    expect(without.notes.join("\n")).toContain("not checked by a model (no curator model configured");
    const models = createScriptedModels({
      conflict: () => ({ conflict: true, reason: "both rule on division" }),
    });
    const withModel = createManualCurator({ store, models });
    const result = await withModel.apply({
      domain: "math",
      expectedHead: 2,
      note: "",
      action: {
        kind: "edit",
        id: "G0",
        text: "When dividing by a variable, never check whether the variable can be zero.",
      },
    });
    expect(models.calls.some((call) => call.name === "conflict_check")).toBe(true);
    expect(result.conflicts.pairs[0]).toMatchObject({ source: "model" });
    const head = (await store.getHead("math"))!.experiences;
    expect(head.find((e) => e.id === "G0")!.conflictGroup).toBeDefined();
    expect(head.find((e) => e.id === "G0")!.conflictGroup).toBe(
      head.find((e) => e.id === "G2")!.conflictGroup,
    );
  });
});
