import type { Run } from "@tfgrpo/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { at, type RunTestStore } from "./contract-helpers.js";
import { expectTfgrpoError } from "./fixtures.js";

/** The conformance suite of a `RunStore` backend: runs and their durable state. */
export function runStoreContractTests(name: string, createFresh: () => Promise<RunTestStore>): void {
  describe(`run store contract: ${name}`, () => {
    let store: RunTestStore;
    beforeEach(async () => {
      store = await createFresh();
    });
    afterEach(async () => {
      await store.close();
    });

    const run: Run = {
      id: "run-1",
      kind: "learn",
      domain: "math",
      status: "running",
      config: { groupSize: 4 },
      startedAt: at(0).toISOString(),
      finishedAt: null,
    };

    it("creates, updates, reads and lists runs", async () => {
      expect(await store.createRun(run)).toEqual(run);
      await expectTfgrpoError(store.createRun(run), "conflict");
      await store.createRun({ ...run, id: "run-2", kind: "eval", startedAt: at(5).toISOString() });
      const finished = await store.updateRun("run-1", {
        status: "finished",
        finishedAt: at(9).toISOString(),
        summary: { accuracy: 0.5 },
      });
      expect(finished).toEqual({
        ...run,
        status: "finished",
        finishedAt: at(9).toISOString(),
        summary: { accuracy: 0.5 },
      });
      expect(await store.getRun("run-1")).toEqual(finished);
      expect(await store.getRun("nope")).toBeNull();
      expect((await store.listRuns()).map((r) => r.id)).toEqual(["run-2", "run-1"]);
      expect((await store.listRuns({ kind: "learn" })).map((r) => r.id)).toEqual(["run-1"]);
      expect((await store.listRuns({ status: "running", limit: 5 })).map((r) => r.id)).toEqual(["run-2"]);
      await expectTfgrpoError(store.updateRun("nope", { status: "failed" }), "not_found");
      await expectTfgrpoError(
        store.updateRun("run-1", { status: "exploded" as Run["status"] }),
        "invalid_input",
      );
      expect((await store.getRun("run-1"))!.status).toBe("finished");
    });

    it("keeps a durable key-value area per run", async () => {
      expect(await store.getRunState("run-1", "cursor")).toBeUndefined();
      await store.putRunState("run-1", "cursor", { epoch: 1, step: 3, done: ["a", "b"] });
      await store.putRunState("run-1", "cursor", { epoch: 1, step: 4, done: ["a", "b", "c"] });
      await store.putRunState("run-1", "budget", 1.25);
      await store.putRunState("run-2", "cursor", null);
      expect(await store.getRunState("run-1", "cursor")).toEqual({
        epoch: 1,
        step: 4,
        done: ["a", "b", "c"],
      });
      expect(await store.getRunState("run-2", "cursor")).toBeNull();
      expect(await store.listRunStateKeys("run-1")).toEqual(["budget", "cursor"]);
      expect(await store.deleteRunState("run-1", "budget")).toBe(true);
      expect(await store.deleteRunState("run-1", "budget")).toBe(false);
      await expectTfgrpoError(store.putRunState("run-1", "x", undefined), "invalid_input");
      await expectTfgrpoError(store.putRunState("run-1", "x", { big: 1n }), "invalid_input");
    });
  });
}
