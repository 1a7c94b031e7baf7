// The curator against the sim world (packages/sim: a SIMULATED model behind a real OpenAI-compatible HTTP server)
// through the real models client and a real SQLite store, with a noisy critic's batch: paraphrased duplicates,
// exact duplicates, vague advice, contradictory lessons, wrong ids and over-long lessons. The lessons come from the
// lesson bank (test-data/lesson-bank, written independently of the sim), which also says which pitfall each is about.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createModels, parseModelsConfig } from "@tfgrpo/models";
import type { Proposal } from "@tfgrpo/protocol";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { cosineSimilarity, createSimModel, createSimServer, embedText, type SimServer } from "@tfgrpo/sim";
import { loadLessonBank, type PitfallLessons } from "@tfgrpo/sim/testing";
import { createStore, type Store } from "@tfgrpo/store";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCurator } from "./create-curator.js";
import { isVagueLesson } from "./vague-lesson.js";
import { countWords } from "./word-limit.js";

const bank = loadLessonBank("math");
const pitfallIds = Object.keys(bank.pitfalls);
const lessonsOf = (index: number): PitfallLessons => bank.pitfalls[pitfallIds[index]!]!;
let directory: TemporaryDirectory;
let store: Store;
let base: number;

/** The simulated curator's own answer to one conflict check (used only to choose the batch's texts). */
const oracle = createSimModel({ seed: 1 });
function simSeesConflict(a: string, b: string): boolean {
  const answer = oracle.complete({
    model: "sim-curator",
    messages: [
      {
        role: "user",
        content: `<experience_a id="A">${a}</experience_a>\n<experience_b id="B">${b}</experience_b>`,
      },
    ],
    response_format: { type: "json_object" },
  });
  return (JSON.parse(answer.content!) as { conflict: boolean }).conflict;
}

/** The three texts of `texts` closest to each other: paraphrases a text-only curator can see are duplicates. */
function closestTriple(texts: readonly string[]): string[] {
  const vectors = texts.map((text) => embedText(text));
  const sim = (i: number, j: number) => cosineSimilarity(vectors[i]!, vectors[j]!);
  let best: number[] = [];
  let bestScore = -Infinity;
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++)
      for (let k = j + 1; k < texts.length; k++) {
        const score = Math.min(sim(i, j), sim(i, k), sim(j, k));
        if (score > bestScore) [best, bestScore] = [[i, j, k], score];
      }
  return best.map((index) => texts[index]!);
}

/**
 * A harmful lesson of a pitfall that visibly contradicts several of its correct lessons, and the three closest of
 * those correct lessons: a batch majority that contradicts it in words a reader can see.
 */
function contradiction(lessons: PitfallLessons): { harmful: string; majority: string[] } {
  const scored = lessons.harmful.map((harmful) => ({
    harmful,
    against: lessons.correct.filter((correct) => simSeesConflict(correct, harmful)),
  }));
  scored.sort((a, b) => b.against.length - a.against.length);
  const { harmful, against } = scored[0]!;
  return { harmful, majority: closestTriple(against.length >= 3 ? against : lessons.correct) };
}

/** Which pitfall and kind (correct/harmful) of the bank a text is, by the bank text it shares most words with. */
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
function ownerOf(text: string): string | null {
  const mine = words(text);
  let best: { key: string; score: number } | null = null;
  for (const [id, lessons] of Object.entries(bank.pitfalls))
    for (const kind of ["correct", "harmful"] as const)
      for (const lesson of lessons[kind]) {
        const theirs = words(lesson);
        let shared = 0;
        for (const word of theirs) if (mine.has(word)) shared++;
        const score = shared / Math.max(1, Math.min(mine.size, theirs.size));
        if (!best || score > best.score) best = { key: `${id}:${kind}`, score };
      }
  return best && best.score >= 0.6 ? best.key : null;
}

const minority = contradiction(lessonsOf(1));
const wrongWay = contradiction(lessonsOf(2));

function modelsFor(sim: SimServer) {
  return createModels(
    parseModelsConfig({
      roles: {
        curator: { baseUrl: sim.url, model: "sim-curator", maxRetries: 1, timeoutMs: 10_000 },
        embedder: { baseUrl: sim.url, model: "sim-embedder" },
      },
    }),
    { sleep: async () => {} },
  );
}

/** What a noisy critic produces over a few pitfalls. */
function noisyBatch(): Proposal[] {
  const proposals: Proposal[] = [];
  const add = (text: string, reason: string, extra: Partial<Proposal> = {}) =>
    proposals.push({
      proposalId: `p${proposals.length}`,
      op: "add",
      text,
      reason,
      groupId: `group-${proposals.length % 7}`,
      taskId: `task-${proposals.length}`,
      ...extra,
    });
  const duplicates = [0, 1, 2, 3, 4].map((index) =>
    index === 1
      ? minority.majority
      : index === 2
        ? wrongWay.majority
        : closestTriple(lessonsOf(index).correct),
  );
  // Every group that met the pitfall proposes a paraphrase: duplicates the curator must merge.
  duplicates.forEach((texts, index) => {
    for (const text of texts) add(text, `attempts on ${pitfallIds[index]} failed without this`);
  });
  // The same lesson, word for word, from two more groups.
  add(duplicates[0]![0]!, "exact duplicate");
  add(duplicates[0]![0]!.toLowerCase(), "exact duplicate, other case");
  // A minority pointing the wrong way on pitfall 1.
  add(minority.harmful, "contradictory");
  // Vague advice, a bare keyword stub and a wrong id.
  add(lessonsOf(0).vague[0]!, "vague");
  add(lessonsOf(3).vague[0]!, "vague");
  add(lessonsOf(4).stubs[0]!, "stub");
  add("When stuck, rethink.", "wrong id", { op: "modify", id: "G999" });
  add("", "empty", { op: "delete", id: "G998", text: undefined });
  // An over-long lesson.
  add(`${lessonsOf(5).correct[0]!} ${lessonsOf(5).correct[1]!} Always write this down twice.`, "long");
  return proposals;
}

beforeAll(async () => {
  directory = await temporaryDirectory("tfgrpo-curator-int-");
});
afterAll(() => directory[Symbol.asyncDispose]());
beforeEach(async () => {
  store = await createStore(path.join(directory.path, `store-${Date.now()}-${Math.random()}.db`));
  await store.importLibrary("math", {
    text: await readFile(realLibraryPath("math"), "utf8"),
    file: "math.json",
  });
  // A wrong-way lesson already in the library, which this batch's majority contradicts.
  const wrong = await store.applyOperations(
    "math",
    [
      {
        op: "add",
        text: wrongWay.harmful,
        status: "active",
        reason: "learned earlier from a noisy batch",
      },
    ],
    { parent: (await store.getHeadVersion("math"))!, state: "committed" },
  );
  base = wrong.version.version;
});
afterEach(async () => {
  await store.close();
});

describe("consolidation over the sim world with a noisy critic", () => {
  it("merges duplicates, resolves or groups contradictions, keeps every entry within the word limit", async () => {
    await using sim = await createSimServer({ seed: 11 });
    const curator = createCurator({
      store,
      models: modelsFor(sim),
      config: { conflicts: { topicSimilarity: 0.4 }, duplicates: { nearDuplicateSimilarity: 0.9 } },
    });
    const proposals = noisyBatch();
    const result = await curator.consolidate({
      runId: "run-int",
      domain: "math",
      baseVersion: base,
      proposals,
    });
    expect(result.fallback).toBe(false);
    expect(result.version).not.toBeNull();
    // The pre-pass folded the exact duplicates and dropped the malformed ones before the model saw them.
    expect(result.prepass.collapsed).toBeGreaterThanOrEqual(2);
    expect(result.notes.some((note) => /^p\d+: delete of unknown id G998, dropped$/.test(note))).toBe(true);
    expect(
      result.notes.some((note) => /^p\d+: modify of unknown id G999: kept as a new entry$/.test(note)),
    ).toBe(true);

    const after = (await store.getVersion("math", result.version!))!.experiences;
    const live = after.filter((entry) => entry.status !== "archived");
    for (const entry of live) expect(countWords(entry.text), entry.text).toBeLessThanOrEqual(32);

    // Duplicates merged: at most one live entry per pitfall direction among what this batch created.
    const created = live.filter((entry) => result.createdIds.includes(entry.id));
    expect(created.length).toBeGreaterThan(0);
    // Vague advice and keyword stubs do not make it in, whoever proposed or kept them.
    for (const entry of created) expect(isVagueLesson(entry.text, 4), entry.text).toBe(false);
    expect(result.notes.some((note) => note.includes("too vague to act on"))).toBe(true);
    // The bank says which pitfall (and which way) each created text is about: one entry each.
    const perConcept = new Map<string, number>();
    for (const entry of created) {
      const key = ownerOf(entry.text);
      if (key) perConcept.set(key, (perConcept.get(key) ?? 0) + 1);
    }
    expect(perConcept.size).toBeGreaterThanOrEqual(5);
    for (const [concept, count] of perConcept) expect(count, concept).toBe(1);

    // The wrong-way lesson the majority contradicts is resolved (archived) or put in a group with its rival.
    const wrongEntry = after.find((entry) => entry.text === wrongWay.harmful);
    expect(wrongEntry).toBeDefined();
    const rivals = live.filter((entry) => ownerOf(entry.text) === `${pitfallIds[2]}:correct`);
    if (wrongEntry!.status !== "archived") {
      expect(wrongEntry!.conflictGroup).toBeDefined();
      expect(rivals.some((rival) => rival.conflictGroup === wrongEntry!.conflictGroup)).toBe(true);
    }
    // Resolved means gone: the wrong-way text does not live on as the text of a merged entry.
    for (const entry of live)
      if (entry.text === wrongWay.harmful) expect(entry.conflictGroup, entry.id).toBeDefined();
    // No two live entries give opposite advice on one pitfall outside a shared exclusion group.
    const byPitfall = new Map<string, typeof live>();
    for (const entry of live) {
      const owner = ownerOf(entry.text);
      if (!owner) continue;
      const pitfall = owner.split(":")[0]!;
      byPitfall.set(pitfall, [...(byPitfall.get(pitfall) ?? []), entry]);
    }
    for (const [pitfall, entries] of byPitfall) {
      const directions = new Set(entries.map((entry) => ownerOf(entry.text)!.split(":")[1]));
      if (directions.size < 2) continue;
      const groups = new Set(entries.map((entry) => entry.conflictGroup));
      expect(groups.size, `${pitfall}: ${entries.map((e) => e.text).join(" | ")}`).toBe(1);
      expect([...groups][0]).toBeDefined();
    }
    expect(result.usage.calls).toBeGreaterThan(0);
  });

  it("loses nothing when every model answer is malformed: the batch's proposals become candidates", async () => {
    await using sim = await createSimServer({
      seed: 12,
      faults: { rate: 1, kinds: { garbledJson: true } },
    });
    const curator = createCurator({
      store,
      models: modelsFor(sim),
      config: { conflicts: { topicSimilarity: 0.4 } },
    });
    const proposals = noisyBatch();
    const result = await curator.consolidate({
      runId: "run-faulty",
      domain: "math",
      baseVersion: base,
      proposals,
    });
    expect(result.fallback).toBe(true);
    expect(result.notes.some((note) => note.includes("model answer unusable"))).toBe(true);
    const after = (await store.getVersion("math", result.version!))!.experiences;
    const texts = new Set(after.map((entry) => entry.text.toLowerCase()));
    // Every proposal with text is either in the library now (as a candidate, shortened if needed) or was folded into a
    // duplicate by the pre-pass: accounted for in the notes or the suggestion sources.
    for (const proposal of proposals) {
      if (!proposal.text) continue;
      const kept = [...texts].some((text) =>
        text.startsWith(proposal.text!.toLowerCase().split(" ").slice(0, 8).join(" ")),
      );
      const noted = result.notes.some(
        (note) => note.includes(`${proposal.proposalId}:`) || note.includes(`${proposal.proposalId},`),
      );
      expect(kept || noted, `${proposal.proposalId}: ${proposal.text}`).toBe(true);
    }
    for (const entry of after.filter((e) => result.createdIds.includes(e.id))) {
      expect(entry.status).toBe("candidate");
      expect(countWords(entry.text)).toBeLessThanOrEqual(32);
    }
  });

  it("groups contradictory entries of a library through the sim's conflict check", async () => {
    await using sim = await createSimServer({ seed: 13 });
    // A correct and a harmful lesson of one pitfall, on one topic by the embeddings, opposite in visible words.
    const lessons = lessonsOf(3);
    const [correct, harmful] = lessons.correct
      .flatMap((c) => lessons.harmful.map((h) => [c, h] as const))
      .filter(([c, h]) => cosineSimilarity(embedText(c), embedText(h)) >= 0.45 && simSeesConflict(c, h))[0]!;
    const head = (await store.getHeadVersion("math"))!;
    await store.applyOperations(
      "math",
      [
        { op: "add", text: correct, status: "candidate", reason: "fallback candidate" },
        { op: "add", text: harmful, status: "candidate", reason: "fallback candidate" },
      ],
      { parent: head, state: "committed" },
    );
    const curator = createCurator({
      store,
      models: modelsFor(sim),
      config: { conflicts: { topicSimilarity: 0.4 } },
    });
    const report = await curator.detectConflicts({ domain: "math", apply: "committed" });
    const after = (await store.getHead("math"))!.experiences;
    const lesson = after.find((entry) => entry.text === correct)!;
    const opposite = after.find((entry) => entry.text === harmful)!;
    expect(
      report.conflicts.pairs.some(
        (pair) => [pair.a, pair.b].sort().join() === [lesson.id, opposite.id].sort().join(),
      ),
    ).toBe(true);
    expect(lesson.conflictGroup).toBeDefined();
    expect(opposite.conflictGroup).toBe(lesson.conflictGroup);
  });
});

/** `size` lessons of `texts` close to each other: the closest pair, then the lesson closest to all chosen so far. */
function closestSet(texts: readonly string[], size: number): string[] {
  const vectors = texts.map((text) => embedText(text));
  const sim = (i: number, j: number) => cosineSimilarity(vectors[i]!, vectors[j]!);
  let chosen: number[] = [];
  let best = -Infinity;
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++) if (sim(i, j) > best) [best, chosen] = [sim(i, j), [i, j]];
  while (chosen.length < size) {
    let pick = -1;
    let score = -Infinity;
    for (let k = 0; k < texts.length; k++) {
      if (chosen.includes(k)) continue;
      const worst = Math.min(...chosen.map((c) => sim(c, k)));
      if (worst > score) [score, pick] = [worst, k];
    }
    chosen.push(pick);
  }
  return chosen.map((index) => texts[index]!);
}

describe("consolidation by meaning over the sim world", () => {
  it("gathers paraphrases spread through a first epoch's batch into one prompt: at most two entries per idea", async () => {
    await using sim = await createSimServer({ seed: 21 });
    // Two ideas, each proposed in six wordings (none a near duplicate of another), arriving far apart in a batch of
    // unrelated lessons, as a first epoch's proposals do (one group per task, in task order).
    const ideas = ["weighted-mean", "successive-percent-base"].map((id) => ({
      id,
      texts: closestSet(bank.pitfalls[id]!.correct, 6),
    }));
    const texts = bank.unrelated.slice(0, 36);
    for (const [at, idea] of ideas.entries())
      for (const [index, text] of idea.texts.entries()) texts.splice(index * 7 + at * 3, 0, text);
    const proposals: Proposal[] = texts.map((text, index) => ({
      proposalId: `p${index}`,
      op: "add",
      text,
      reason: `group ${index} failed without this`,
      groupId: `group-${index}`,
      taskId: `task-${index}`,
    }));
    const curator = createCurator({
      store,
      models: modelsFor(sim),
      // A budget that splits this batch into several prompts, as ~150 proposals split the default 6,000 tokens.
      config: { maxPromptTokens: 1600, conflicts: { topicSimilarity: 0.4 } },
    });
    const result = await curator.consolidate({
      runId: "run-paraphrases",
      domain: "algebra",
      baseVersion: null,
      proposals,
    });
    expect(result.fallback).toBe(false);
    expect(result.chunks).toBeGreaterThanOrEqual(3);
    // No paraphrase was folded by the pre-pass (they are below the near-duplicate threshold): the chunks saw them all.
    expect(result.prepass.collapsed).toBe(0);
    const created = (await store.getVersion("algebra", result.version!))!.experiences;
    // An entry stands for an idea when it opens with one of the idea's wordings (a merge keeps one wording, or joins
    // two: "A; b"), however the merge shortened it.
    const opening = (text: string) =>
      text
        .toLowerCase()
        .replace(/[.!?]+$/, "")
        .split(/\s+/)
        .slice(0, 6)
        .join(" ");
    const perIdea = ideas.map(
      ({ texts }) =>
        created.filter((entry) => texts.some((text) => entry.text.toLowerCase().includes(opening(text))))
          .length,
    );
    console.info(
      `paraphrases: entries kept per idea ${perIdea.join(", ")}; chunks ${result.chunks}, reconcile calls ${result.reconcile.calls} (${result.reconcile.results} results), curator calls ${result.usage.calls}`,
    );
    if (process.env.DEBUG_PARAPHRASES) {
      for (const idea of ideas) console.info(idea.id, idea.texts);
      console.info(created.map((entry) => entry.text).join("\n"));
      console.info(result.notes.join("\n"));
    }
    for (const [index, count] of perIdea.entries()) {
      expect(count, ideas[index]!.id).toBeGreaterThanOrEqual(1);
      expect(count, ideas[index]!.id).toBeLessThanOrEqual(2);
    }
  });
});
