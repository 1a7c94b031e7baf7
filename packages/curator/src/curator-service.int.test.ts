// The curator as a role service over a real nats-server: a worker process-side Bus serves tfgrpo.curator.*, a
// separate client connection calls it, the store is a real SQLite file and the models are the sim server's.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import {
  curatorConflicts,
  curatorConsolidate,
  curatorCredit,
  curatorGate,
  curatorLifecycle,
  curatorMerge,
  TfgrpoError,
} from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSimServer } from "@tfgrpo/sim";
import { loadLessonBank } from "@tfgrpo/sim/testing";
import { createStore } from "@tfgrpo/store";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { describe, expect, it } from "vitest";
import { createCurator } from "./create-curator.js";
import { createCuratorRole } from "./curator-role.js";

describe("curator service over NATS", () => {
  it("consolidates, credits, gates, moves the lifecycle, checks conflicts and merges libraries for remote callers", async () => {
    await using directory = await temporaryDirectory("tfgrpo-curator-nats-");
    await using nats = await startNatsServer();
    await using sim = await createSimServer({ seed: 21 });
    const store = await createStore(path.join(directory.path, "workspace.db"));
    await store.importLibrary("math", {
      text: await readFile(realLibraryPath("math"), "utf8"),
      file: "math.json",
    });
    await store.importLibrary("web", {
      text: await readFile(realLibraryPath("web"), "utf8"),
      file: "web.json",
    });
    const models = createModels(
      parseModelsConfig({
        roles: {
          curator: { baseUrl: sim.url, model: "sim-curator" },
          embedder: { baseUrl: sim.url, model: "sim-embedder" },
        },
      }),
    );
    const curator = createCurator({ store, models, config: { conflicts: { topicSimilarity: 0.4 } } });
    const streamPrefix = `CUR${process.pid}`;
    const workerBus = await createNatsBus({ servers: nats.url, name: "curator worker", streamPrefix });
    const clientBus = await createNatsBus({ servers: nats.url, name: "runner", streamPrefix });
    const served = await createCuratorRole(curator, { concurrency: 2 }).serve(workerBus);
    try {
      const head = (await store.getHeadVersion("math"))!;
      // Three correct lessons about one pitfall, from the lesson bank (written independently of the sim).
      const [pitfall] = Object.values(loadLessonBank("math").pitfalls);
      const proposals = pitfall!.correct.slice(0, 3).map((text, index) => ({
        proposalId: `p${index}`,
        op: "add" as const,
        text,
        reason: `group ${index} found it`,
        groupId: `g${index}`,
        taskId: `t${index}`,
      }));
      const consolidated = await clientBus.request(curatorConsolidate, {
        runId: "run-nats",
        domain: "math",
        baseVersion: head,
        proposals,
      });
      expect(consolidated.version).not.toBeNull();
      expect(consolidated.operations.length).toBeGreaterThan(0);
      expect(consolidated.usage!.calls).toBeGreaterThan(0);
      expect((await store.getVersionInfo("math", consolidated.version!))!.state).toBe("proposed");

      const credited = await clientBus.request(curatorCredit, {
        domain: "math",
        version: head,
        observations: [
          { trajectoryId: "t1", reward: 1, groupMeanReward: 0.5, shown: ["G0", "G1"], cited: ["G0"] },
        ],
      });
      expect(credited).toEqual({ updated: 2, statsRevision: expect.stringMatching(/^stats-[0-9a-f]{16}$/) });

      const gate = await clientBus.request(curatorGate, {
        domain: "math",
        candidateVersion: consolidated.version!,
        headVersion: head,
        // The sequential gate (the default), two rounds of 15 tasks: enough to rule out a 10-point loss.
        candidateScores: Array.from({ length: 5 }, () => [1, 1, 0]).flat(),
        headScores: Array.from({ length: 5 }, () => [1, 0, 0]).flat(),
        stage: "full",
        samplesPerTask: 2,
        rounds: Array.from({ length: 2 }, () => ({
          candidate: Array.from({ length: 5 }, () => [1, 1, 0]).flat(),
          head: Array.from({ length: 5 }, () => [1, 0, 0]).flat(),
        })),
        maxRounds: 4,
      });
      expect(gate).toMatchObject({
        decision: "commit",
        candidateScore: 2 / 3,
        headScore: 1 / 3,
        details: { samplesPerTask: 2, test: { kind: "sequential", tasks: 15, rounds: 2, maxRounds: 4 } },
      });
      expect((await store.getHeadVersion("math"))!).toBe(consolidated.version);

      const lifecycle = await clientBus.request(curatorLifecycle, { domain: "math" });
      // 27 imported entries plus the new candidates, active budget 50: nothing has evidence enough to move yet.
      expect(lifecycle).toEqual({ version: null, transitions: [] });

      const conflicts = await clientBus.request(curatorConflicts, { domain: "math" });
      expect(conflicts.version).toBeNull();
      expect(Array.isArray(conflicts.pairs)).toBe(true);

      const merged = await clientBus.request(curatorMerge, { from: "web", into: "math", runId: "merge-1" });
      expect(merged).toMatchObject({ committed: true, imported: 46 });
      expect((await store.getHeadVersion("math"))!).toBe(merged.version);

      // Errors cross the Bus as TfgrpoErrors with their code.
      let failure: unknown;
      try {
        await clientBus.request(curatorConsolidate, {
          runId: "r",
          domain: "math",
          baseVersion: 999,
          proposals,
        });
      } catch (error) {
        failure = error;
      }
      expect(TfgrpoError.hasCode(failure, "not_found")).toBe(true);
      expect((failure as Error).message).toContain("library math@v999 not found");
    } finally {
      await served.close();
      await clientBus.close();
      await workerBus.close();
      await store.close();
    }
  });
});
