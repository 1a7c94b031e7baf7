// `tfgrpo serve --role library --nats URL --db FILE` as a separate process, against a real nats-server and the
// SIMULATED model server (its embedder gives retrieval its similarity): this process plays an agent on the Bus.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { libraryExperiences, libraryGet, libraryOutcome, TfgrpoError } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { expect, it } from "vitest";
import { startRoleWorker } from "../testing/start-role-worker.js";

it("tfgrpo serve --role library serves experiences with an exploration slot and takes each outcome once", async () => {
  await using nats = await startNatsServer();
  await using sim = await createSimServer({ seed: 3 });
  await using temporary = await temporaryDirectory("tfgrpo-library-role-");
  const db = path.join(temporary.path, "workspace.db");
  const store = await createStore(db);
  await store.importLibrary("math", {
    text: await readFile(realLibraryPath("math"), "utf8"),
    file: "math.json",
  });
  // Two new entries the curator has not proven yet.
  await store.applyOperations(
    "math",
    [
      {
        op: "add",
        text: "Substitute the answer back into the original equation.",
        reason: "new",
        status: "candidate",
      },
      {
        op: "add",
        text: "State the domain restrictions before solving.",
        reason: "new",
        status: "candidate",
      },
    ],
    { parent: 1, state: "committed" },
  );
  await store.close();
  await using worker = await startRoleWorker(
    "library",
    ["--nats", nats.url, "--config", "examples/models.sim.yaml", "--db", db],
    { env: { SIM_PORT: String(sim.port), TFGRPO_NATS_URL: "" } },
  );
  const agent = await createNatsBus({ servers: nats.url, name: "library-role-test" });
  try {
    expect(worker.output.stderr).toContain("tfgrpo.library.experiences (requests)");
    expect(worker.output.stderr).toContain("similarity from the embedder");
    const task = "Find all real x with x^2 - 5x + 6 = 0.";
    const reply = await agent.request(libraryExperiences, { domain: "math", task });
    expect(reply.version).toBe(2);
    expect(reply.entries.length).toBeGreaterThan(5);
    expect(reply.explorationIds.length).toBeGreaterThanOrEqual(1);
    // The exploration arm: entries shown this request by the slot or the per-request coin of an uncertain entry
    // (candidates, a rotating share of active ones); a candidate that is shown is always in it.
    const ids = reply.entries.map((e) => e.id);
    expect(reply.explorationIds.every((id) => ids.includes(id))).toBe(true);
    for (const id of ["G27", "G28"]) if (ids.includes(id)) expect(reply.explorationIds).toContain(id);
    expect(reply.promptBlock.startsWith("# Learned Experiences\n")).toBe(true);
    // The same task, served again: another selection; the lines of the entries neither request varied are the same.
    const again = await agent.request(libraryExperiences, { domain: "math", task });
    expect(again.selectionId).not.toBe(reply.selectionId);
    const steady = (r: typeof reply, other: typeof reply) =>
      r.promptBlock
        .split("\n")
        .filter((line) => /^\[G\d+\]\. /.test(line))
        .filter((line) => {
          const id = line.slice(1, line.indexOf("]"));
          return (
            !r.explorationIds.includes(id) &&
            !other.explorationIds.includes(id) &&
            other.entries.some((e) => e.id === id)
          );
        });
    expect(steady(again, reply)).toEqual(steady(reply, again));
    expect(steady(reply, again).length).toBeGreaterThan(0);
    // A pinned version: v1 had no candidates; only its own (active) entries can be varied.
    const pinned = await agent.request(libraryExperiences, { domain: "math", task, version: 1 });
    expect(pinned.version).toBe(1);
    expect(pinned.explorationIds.every((id) => id !== "G27" && id !== "G28")).toBe(true);

    const outcome = await agent.request(libraryOutcome, {
      selectionId: reply.selectionId,
      success: true,
      summary: `Used ${reply.entries[0]!.id}: [${reply.entries[0]!.id}] and checked both roots.`,
    });
    expect(outcome).toMatchObject({ reward: 1, success: true, citedIds: [reply.entries[0]!.id] });
    expect(outcome.creditedIds).toEqual(reply.entries.map((e) => e.id));
    const twice = await agent
      .request(libraryOutcome, { selectionId: reply.selectionId, success: false })
      .catch((e) => e);
    expect(TfgrpoError.isInstance(twice) && twice.code).toBe("conflict");
    const bad = await agent
      .request(libraryOutcome, { selectionId: reply.selectionId } as never)
      .catch((e) => e);
    expect(TfgrpoError.isInstance(bad) && bad.code).toBe("invalid_input");
    // The worker keeps serving after refusing: whole versions too.
    const snapshot = await agent.request(libraryGet, { domain: "math", version: "head" });
    expect(snapshot?.experiences).toHaveLength(29);

    const check = await createStore(db);
    try {
      expect(await check.countOutcomes("math")).toEqual({
        served: 3,
        reported: 1,
        successes: 1,
        unconsumed: 1,
      });
      const head = (await check.getHead("math"))!;
      const shown = head.experiences.filter((e) => e.stats.shown > 0).map((e) => e.id);
      expect(shown).toEqual(reply.entries.map((e) => e.id));
    } finally {
      await check.close();
    }
  } finally {
    await agent.close();
  }
});
