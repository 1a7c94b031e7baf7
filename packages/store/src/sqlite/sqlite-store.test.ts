import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createStore } from "../create-store.js";
import { makeTrajectory } from "../testing/fixtures.js";
import { storeContractTests } from "../testing/store-contract-tests.js";
import { SqliteStore } from "./sqlite-store.js";

storeContractTests("sqlite :memory:", () => createStore(":memory:"));

const dir = mkdtempSync(path.join(os.tmpdir(), "tfgrpo-store-contract-"));
let n = 0;
storeContractTests("sqlite file", () => createStore(`sqlite://${path.join(dir, `store-${n++}.db`)}`));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SqliteStore composition", () => {
  it("its three aggregate stores share one connection: each sees the others' writes, one close ends them all", async () => {
    // In memory, a second connection would be a second, empty database.
    const store = await SqliteStore.fromUrl("sqlite::memory:");
    await store.libraries.applyOperations("math", [{ op: "add", text: "kept", reason: "r" }], {
      parent: null,
      state: "committed",
    });
    await store.runs.putRunState("run-1", "cursor", { step: 1 });
    await store.trajectories.putTrajectories([makeTrajectory({ id: "t1" })]);
    expect((await store.getHead("math"))?.experiences.map((e) => e.text)).toEqual(["kept"]);
    expect(await store.getRunState("run-1", "cursor")).toEqual({ step: 1 });
    expect(await store.countTrajectories({ runId: "run-1" })).toBe(1);
    expect(store.inspect()).toMatchObject({ schemaVersion: 1, integrity: "ok" });
    await store.close();
    await expect(store.runs.getRunState("run-1", "cursor")).rejects.toThrow(/not open/);
  });
});
