import { emptyUsageTotals, type Operation, TfgrpoError } from "@tfgrpo/protocol";
import { makeExperience } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { resolveCuratorConfig } from "./curator-config.js";
import type { CuratorContext } from "./curator-context.js";
import { silentLogger } from "./curator-dependencies.js";
import { hashingEmbed } from "./hashing-embedder.js";
import { reconcileChunkResults } from "./reconcile-chunk-results.js";
import { createScriptedModels, suggestedUpdates } from "./testing/index.js";

const weighted = [
  "When averaging the means of several groups, weight each group's mean by its size.",
  "For a combined mean of groups of different sizes, weight every group mean by how many members it has.",
];
const unrelated =
  "To test whether n is prime, trial division by primes no larger than the square root is enough.";
const library = new Map(
  [makeExperience({ id: "G1", text: "When rounding money, round once at the end of the calculation." })].map(
    (entry) => [entry.id, entry],
  ),
);

function contextWith(consolidation: (prompt: string) => unknown) {
  const models = createScriptedModels({ consolidation });
  const context: CuratorContext = {
    config: resolveCuratorConfig({}),
    store: {} as CuratorContext["store"],
    models,
    logger: silentLogger,
    now: () => new Date(0),
    async embed(texts) {
      return new Map(texts.map((text) => [text, hashingEmbed(text)]));
    },
    conflictCache: new Map(),
    leakageIndexes: new Map(),
  };
  return { context, models };
}

const add = (text: string, reason = "chunk decision"): Operation => ({
  op: "add",
  text,
  status: "candidate",
  reason,
});

async function run(context: CuratorContext, results: { chunk: number; operations: Operation[] }[]) {
  return reconcileChunkResults(context, {
    runId: "run",
    domain: "math",
    library,
    results,
    vectors: new Map([...library.values()].map((entry) => [entry.text, hashingEmbed(entry.text)])),
    usage: { totals: emptyUsageTotals() },
  });
}

describe("reconcileChunkResults", () => {
  it("puts results of different chunks on one topic to one more call, whose answer replaces them", async () => {
    const { context, models } = contextWith((prompt) => {
      const ids = suggestedUpdates(prompt).map((update) => String(update.temp_id));
      return {
        operations: [{ option: "merge", experience_ids: ids, experience: weighted[0], reason: "same" }],
      };
    });
    const result = await run(context, [
      { chunk: 0, operations: [add(weighted[0]!), add(unrelated)] },
      { chunk: 1, operations: [add(weighted[1]!), { op: "keep", id: "G1", reason: "fine" }] },
    ]);
    const prompts = models.calls.filter((call) => call.name === "consolidation");
    expect(prompts).toHaveLength(1);
    // Only the two results that meet across chunks are asked about; the rest passes through.
    expect(suggestedUpdates(prompts[0]!.prompt).map((update) => update.experience)).toEqual(weighted);
    expect(result).toMatchObject({ calls: 1, reconciled: 2 });
    expect(result.operations.filter((op) => op.op === "add").map((op) => op.op === "add" && op.text)).toEqual(
      [unrelated, weighted[0]],
    );
    expect(result.operations).toContainEqual({ op: "keep", id: "G1", reason: "fine" });
  });

  it("makes no call when no two chunks' results are on one topic, or there is one chunk", async () => {
    const { context, models } = contextWith(() => ({ operations: [] }));
    const apart = await run(context, [
      { chunk: 0, operations: [add(weighted[0]!)] },
      { chunk: 1, operations: [add(unrelated)] },
    ]);
    const together = await run(context, [{ chunk: 0, operations: [add(weighted[0]!), add(weighted[1]!)] }]);
    expect(models.calls).toHaveLength(0);
    expect(apart).toMatchObject({ calls: 0, reconciled: 0, operations: [add(weighted[0]!), add(unrelated)] });
    expect(together.operations).toEqual([add(weighted[0]!), add(weighted[1]!)]);
  });

  it("keeps the chunks' decisions for results the call leaves out, and for all of them when its answer is unusable", async () => {
    const results = [
      { chunk: 0, operations: [add(weighted[0]!)] },
      { chunk: 1, operations: [add(weighted[1]!)] },
    ];
    const silent = await run(contextWith(() => ({ operations: [] })).context, results);
    expect(silent.operations).toEqual([add(weighted[0]!), add(weighted[1]!)]);
    const broken = await run(
      contextWith(() => {
        throw new TfgrpoError("model_error", "garbled");
      }).context,
      results,
    );
    expect(broken.operations).toEqual([add(weighted[0]!), add(weighted[1]!)]);
    expect(broken.notes.some((note) => note.includes("the chunks' decisions stand"))).toBe(true);
  });
});
