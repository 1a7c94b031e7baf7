// CPU cost of the curator's deterministic parts (no model calls): the consolidation pre-pass, chunk planning and
// conflict detection on libraries of 1,000 to 10,000 entries with a batch of 1,000 noisy proposals; plus the recall
// of the similarity blocking against a brute-force scan. Embeddings come from the local hashing embedder and are
// timed apart (in production they are model calls, cached across batches).
// Run: pnpm --filter @tfgrpo/curator bench
import { type Experience, emptyExperienceStats } from "@tfgrpo/protocol";
import { consolidationPrepass } from "../src/consolidation-prepass.js";
import { detectConflictPairs } from "../src/detect-conflict-pairs.js";
import { hashingEmbed } from "../src/hashing-embedder.js";
import { planConsolidationChunks } from "../src/plan-consolidation-chunks.js";
import { createSimilarityIndex } from "../src/similarity-index.js";
import { syntheticLibrary, syntheticProposals } from "../src/testing/index.js";

const sizes = [1000, 2000, 5000, 10_000];
const proposalsPerBatch = 1000;
const repeats = 3;

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
function measure<T>(run: () => T): { value: T; ms: number } {
  const times: number[] = [];
  let value: T | undefined;
  for (let round = 0; round < repeats; round++) {
    const start = cpuMs();
    value = run();
    times.push(cpuMs() - start);
  }
  times.sort((a, b) => a - b);
  return { value: value as T, ms: times[Math.floor(times.length / 2)]! };
}
async function measureAsync<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const times: number[] = [];
  let value: T | undefined;
  for (let round = 0; round < repeats; round++) {
    const start = cpuMs();
    value = await run();
    times.push(cpuMs() - start);
  }
  times.sort((a, b) => a - b);
  return { value: value as T, ms: times[Math.floor(times.length / 2)]! };
}

function library(size: number): Experience[] {
  return syntheticLibrary({ size, seed: 7 }).map((text, index) => ({
    id: `G${index}`,
    domain: "math",
    text,
    status: index % 10 === 0 ? "candidate" : "active",
    stats: emptyExperienceStats(),
    provenance: { runId: null, version: 1, fromOps: [] },
    history: [],
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  }));
}

/** Brute force over all pairs: how many are at or above each threshold, and each item's true k nearest (>= knnThreshold). */
function bruteForce(vectors: Float32Array[], thresholds: number[], k: number, knnThreshold: number) {
  const nonZero = vectors.map((vector) =>
    Uint32Array.from([...vector.keys()].filter((d) => vector[d] !== 0)),
  );
  const counts = thresholds.map(() => 0);
  const nearest = vectors.map(() => [] as { other: number; similarity: number }[]);
  const offer = (item: number, other: number, similarity: number) => {
    const list = nearest[item]!;
    if (list.length === k && similarity <= list[k - 1]!.similarity) return;
    list.push({ other, similarity });
    list.sort((x, y) => y.similarity - x.similarity);
    if (list.length > k) list.pop();
  };
  for (let a = 0; a < vectors.length; a++) {
    const left = vectors[a]!;
    const list = nonZero[a]!;
    for (let b = a + 1; b < vectors.length; b++) {
      const right = vectors[b]!;
      let dot = 0;
      for (let at = 0; at < list.length; at++) dot += left[list[at]!]! * right[list[at]!]!;
      thresholds.forEach((threshold, index) => {
        if (dot >= threshold) counts[index]!++;
      });
      if (dot >= knnThreshold) {
        offer(a, b, dot);
        offer(b, a, dot);
      }
    }
  }
  return { counts, nearest };
}

const rows: string[][] = [];
const recallRows: string[][] = [];
const baseline = new Map<string, number>();
for (const size of sizes) {
  const entries = library(size);
  const proposals = syntheticProposals({
    count: proposalsPerBatch,
    library: entries.map((e) => e.text),
    seed: 9,
  });
  const texts = [
    ...new Set([...entries.map((e) => e.text), ...proposals.flatMap((p) => (p.text ? [p.text] : []))]),
  ];
  const embedded = measure(() => new Map(texts.map((text) => [text, hashingEmbed(text)])));
  const vectors = embedded.value;
  const prepass = measure(() =>
    consolidationPrepass({
      library: entries,
      proposals,
      embeddings: vectors,
      wordLimit: 32,
      nearDuplicateSimilarity: 0.9,
      minContentWords: 4,
      index: { seed: 17 },
    }),
  );
  const live = entries.filter((entry) => entry.status !== "archived");
  const chunks = measure(() =>
    planConsolidationChunks({
      domain: "math",
      live,
      suggestions: prepass.value.suggestions,
      vectors,
      wordLimit: 32,
      maxPromptTokens: 6000,
      contextNeighbours: 4,
      indexSeed: 17,
      groupSimilarity: 0.4,
    }),
  );
  // Conflict detection as consolidation runs it: the library plus ~the batch's new entries, focused on the new ones.
  const added = prepass.value.suggestions.filter((s) => s.option === "add").map((s) => s.text!);
  const conflictEntries = [...live.map((e) => e.text), ...added].map((text, index) => ({
    key: `k${index}`,
    label: `k${index}`,
    text,
    status: "active" as const,
    stats: emptyExperienceStats(),
  }));
  const conflictVectors = conflictEntries.map((entry) => vectors.get(entry.text)!);
  const settings = { topicSimilarity: 0.5, ruleScanMinSimilarity: 0.3, neighbours: 5, maxModelChecks: 0 };
  const focused = await measureAsync(() =>
    detectConflictPairs({
      entries: conflictEntries,
      vectors: conflictVectors,
      focus: (index) => index >= live.length,
      ...settings,
      index: { seed: 17 },
    }),
  );
  const full = await measureAsync(() =>
    detectConflictPairs({
      entries: conflictEntries,
      vectors: conflictVectors,
      ...settings,
      index: { seed: 17 },
    }),
  );
  const total = prepass.ms + chunks.ms + focused.ms;
  if (size === sizes[0]) {
    baseline.set("prepass", prepass.ms);
    baseline.set("full", full.ms);
    baseline.set("total", total);
  }
  rows.push([
    `${size}`,
    `${proposals.length}`,
    embedded.ms.toFixed(0),
    prepass.ms.toFixed(0),
    `${prepass.value.stats.suggestions} (${prepass.value.stats.dropped} dropped, ${prepass.value.stats.collapsed} folded, ${prepass.value.stats.libraryMerges} lib merges)`,
    chunks.ms.toFixed(0),
    `${chunks.value.length}`,
    focused.ms.toFixed(0),
    `${focused.value.pairs.length} rule / ${focused.value.unchecked} for model`,
    full.ms.toFixed(0),
    `${full.value.pairs.length} rule / ${full.value.unchecked} for model`,
    total.toFixed(0),
    `x${(total / baseline.get("total")!).toFixed(1)}`,
  ]);

  // Blocking recall: the share of pairs above a threshold that the index finds, against a full scan; and for the
  // conflict candidates (each entry's 5 nearest at >= 0.5), the share of the true 5 nearest found.
  const libraryVectors = live.map((entry) => vectors.get(entry.text)!);
  const index = createSimilarityIndex(libraryVectors, { seed: 17 });
  const thresholds = [0.9, 0.75, 0.5];
  const exact = bruteForce(libraryVectors, thresholds, 5, 0.5);
  const allPairs = (libraryVectors.length * (libraryVectors.length - 1)) / 2;
  thresholds.forEach((threshold, at) => {
    const counters = { candidates: 0, compared: 0 };
    const found = index.pairs({ threshold, counters }).length;
    recallRows.push([
      `${size}`,
      `pairs >= ${threshold.toFixed(2)}`,
      `${exact.counts[at]}`,
      `${found}`,
      exact.counts[at] === 0 ? "-" : (found / exact.counts[at]!).toFixed(3),
      `${counters.compared}`,
      `${((100 * counters.compared) / allPairs).toFixed(2)}%`,
    ]);
  });
  const counters = { candidates: 0, compared: 0 };
  const knn = index.pairs({ threshold: 0.5, maxPerItem: 5, counters });
  const foundPairs = new Set(knn.map((pair) => `${pair.a}:${pair.b}`));
  let truth = 0;
  let hit = 0;
  exact.nearest.forEach((list, item) => {
    for (const { other } of list) {
      truth++;
      if (foundPairs.has(`${Math.min(item, other)}:${Math.max(item, other)}`)) hit++;
    }
  });
  recallRows.push([
    `${size}`,
    "5 nearest >= 0.50",
    `${truth}`,
    `${hit}`,
    truth === 0 ? "-" : (hit / truth).toFixed(3),
    `${counters.compared}`,
    `${((100 * counters.compared) / allPairs).toFixed(2)}%`,
  ]);
}

function table(header: string[], body: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  return [
    line(header),
    `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`,
    ...body.map(line),
  ].join("\n");
}

console.log(
  `curator: CPU ms (median of ${repeats}), ${proposalsPerBatch} proposals per batch, hashing embeddings (256-d), no model calls\n`,
);
console.log(
  table(
    [
      "library",
      "proposals",
      "embed",
      "prepass",
      "suggestions",
      "chunking",
      "chunks",
      "conflicts (new)",
      "found",
      "conflicts (all)",
      "found (all)",
      "prepass+chunks+conflicts",
      "growth",
    ],
    rows,
  ),
);
console.log("\nsimilarity blocking vs brute force (library only)\n");
console.log(
  table(["library", "what", "exact", "found", "recall", "similarities computed", "of all pairs"], recallRows),
);
