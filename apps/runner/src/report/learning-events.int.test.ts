import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { GateDecision } from "@tfgrpo/protocol";
import { createStore } from "@tfgrpo/store";
import { describe, expect, it } from "vitest";
import { collectLearningEvents, describeLearningEvents } from "./learning-events.js";

const reject: GateDecision = {
  decision: "reject",
  candidateScore: 0.45,
  headScore: 0.55,
  margin: 0.02,
  mode: "better-by-margin",
  tasks: 20,
  stage: "full",
  reason: "candidate 0.450 is not better than head 0.550 by 0.02",
};

describe("gate and lifecycle events of a learning run", () => {
  it("lists the gate's rejections and the lifecycle's demotions and archivals with their reasons, from a real store", async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-events-"));
    const store = await createStore(path.join(directory, "tfgrpo.db"));
    try {
      const runId = "learn-events";
      const add = (text: string) => ({
        op: "add" as const,
        text,
        status: "active" as const,
        reason: "learned",
      });
      await store.applyOperations(
        "math",
        [add("When counting inclusively, add one."), add("Weight means by size."), add("Round at the end.")],
        { parent: null, state: "committed", runId },
      );
      await store.applyOperations("math", [add("Always square the probability.")], {
        parent: 1,
        state: "proposed",
        runId,
      });
      await store.setVersionState("math", 2, "rejected", reject);
      await store.applyOperations(
        "math",
        [{ op: "modify", id: "G1", status: "probation", reason: "mean Δ -0.20 over 12 showings" }],
        { parent: 1, state: "committed", runId, message: "lifecycle: G1 active->probation" },
      );
      // A consolidation's delete archives too, but it is not a lifecycle move.
      await store.applyOperations("math", [{ op: "delete", id: "G2", reason: "duplicate of G0" }], {
        parent: 3,
        state: "committed",
        runId,
        message: "consolidation",
      });
      await store.applyOperations(
        "math",
        [{ op: "modify", id: "G1", status: "archived", reason: "still below the group after probation" }],
        { parent: 4, state: "committed", runId, message: "lifecycle: G1 probation->archived" },
      );

      const events = await collectLearningEvents(store, "math", runId);
      expect(events.rejections).toEqual([
        {
          version: 2,
          parent: 1,
          candidateScore: 0.45,
          headScore: 0.55,
          margin: 0.02,
          tasks: 20,
          stage: "full",
          reason: reject.reason,
        },
      ]);
      expect(events.demotions.map((d) => [d.id, d.version, d.from, d.to, d.reason])).toEqual([
        ["G1", 3, "active", "probation", "mean Δ -0.20 over 12 showings"],
        ["G1", 5, "probation", "archived", "still below the group after probation"],
      ]);
      const lines = describeLearningEvents(events, 7);
      expect(lines).toEqual([
        `gate rejected v2 (parent v1): candidate 0.450 vs head 0.550 on 20 validation tasks, margin 0.02, full check — ${reject.reason}`,
        'lifecycle demoted G1 at v3 (active -> probation): mean Δ -0.20 over 12 showings — "Weight means by size."',
        'lifecycle archived G1 at v5 (probation -> archived): still below the group after probation — "Weight means by size."',
      ]);

      const quiet = await collectLearningEvents(store, "math", "another-run");
      expect(quiet).toEqual({ rejections: [], demotions: [], promotions: [] });
      expect(describeLearningEvents(quiet, 7)).toEqual([
        "no gate rejection or lifecycle move happened for this seed (7)",
      ]);
    } finally {
      await store.close();
    }
  });
});
