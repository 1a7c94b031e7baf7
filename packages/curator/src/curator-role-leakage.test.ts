import { readFileSync } from "node:fs";
import { createInProcessBus, curatorConsolidate, type Proposal } from "@tfgrpo/protocol";
import { createStore } from "@tfgrpo/store";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { describe, expect, it } from "vitest";
import { createCurator } from "./create-curator.js";
import { createCuratorRole } from "./curator-role.js";
import { leakageFingerprintsOf } from "./leakage-fingerprints.js";
import { createScriptedModels } from "./testing/index.js";

const proposal = (id: string, text: string): Proposal => ({
  proposalId: id,
  op: "add",
  text,
  reason: `reason ${id}`,
  groupId: `group-${id}`,
  taskId: `task-${id}`,
});

describe("tfgrpo.curator.consolidate with the run's tasks, by reference", () => {
  it("refuses lessons carrying a task's answer before consolidation, and says so", async () => {
    const store = await createStore(":memory:");
    await store.importLibrary("math", {
      text: readFileSync(realLibraryPath("math"), "utf8"),
      file: "math.json",
    });
    const base = (await store.getHeadVersion("math"))!;
    const seen: string[] = [];
    const models = createScriptedModels({
      consolidation: (prompt: string) => {
        seen.push(prompt);
        return { operations: [] };
      },
    });
    // The runner writes the run's fingerprints once; the request names them by digest.
    const fingerprints = await store.putLeakageFingerprints(
      leakageFingerprintsOf({
        tasks: [
          {
            id: "aime-2024-13",
            question:
              "Find the largest possible real part of \\[(75+117i)z+\\frac{96+144i}{z}\\]where $z$ is a complex number with $|z|=4$.",
            answer: "540",
          },
        ],
      }),
    );
    const bus = createInProcessBus();
    const handle = await createCuratorRole(createCurator({ store, models })).serve(bus);
    try {
      const reply = await bus.request(curatorConsolidate, {
        runId: "run-leak",
        domain: "math",
        baseVersion: base,
        proposals: [
          proposal("p1", "For the largest real part with |z| = 4, the maximum is 540."),
          proposal(
            "p2",
            "When maximizing a real part over a circle, write z = r(cos t + i sin t) and use amplitude.",
          ),
        ],
        leakage: { fingerprints },
      });
      expect(reply.refused).toEqual([
        { proposalId: "p1", reason: 'contains the answer of task aime-2024-13 ("540")' },
      ]);
      expect(reply.notes[0]).toBe('refused p1 (leakage): contains the answer of task aime-2024-13 ("540")');
      // Only the clean lesson reached the curator's model.
      expect(seen.join("\n")).not.toContain("540");
    } finally {
      await handle.close();
      await bus.close();
      await store.close();
    }
  });

  it("fails, naming the digest, when the fingerprints a request names are not in the curator's store", async () => {
    const store = await createStore(":memory:");
    const bus = createInProcessBus();
    const handle = await createCuratorRole(createCurator({ store, models: createScriptedModels() })).serve(
      bus,
    );
    try {
      await expect(
        bus.request(curatorConsolidate, {
          runId: "run-elsewhere",
          domain: "math",
          baseVersion: null,
          proposals: [proposal("p1", "Any lesson at all.")],
          leakage: { fingerprints: "ab".repeat(32) },
        }),
      ).rejects.toThrow(/leakage fingerprints abababababab are not in the curator's store/);
    } finally {
      await handle.close();
      await bus.close();
      await store.close();
    }
  });
});
