import type { Experience, Proposal } from "@tfgrpo/protocol";
import { makeExperience } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { consolidationPrepass } from "./consolidation-prepass.js";
import { hashingEmbed } from "./hashing-embedder.js";
import { readRealLibrary } from "./testing/index.js";

function embeddingsFor(library: readonly Experience[], proposals: readonly Proposal[]) {
  const map = new Map<string, Float32Array>();
  for (const text of [...library.map((e) => e.text), ...proposals.flatMap((p) => (p.text ? [p.text] : []))])
    map.set(text, hashingEmbed(text));
  return map;
}

const proposal = (id: string, fields: Partial<Proposal>): Proposal => ({
  proposalId: id,
  op: "add",
  reason: `reason of ${id}`,
  groupId: `group-${id}`,
  taskId: `task-${id}`,
  ...fields,
});

function run(library: Experience[], proposals: Proposal[], nearDuplicateSimilarity = 0.9) {
  return consolidationPrepass({
    library,
    proposals,
    embeddings: embeddingsFor(library, proposals),
    wordLimit: 32,
    nearDuplicateSimilarity,
    index: { seed: 3 },
    rewriteOverLimit: false,
  });
}

const math = readRealLibrary("math").map((entry) => makeExperience({ ...entry }));

describe("consolidationPrepass", () => {
  it("drops additions the library already holds (exact, any case or punctuation) and near duplicates of it", () => {
    const g8 = math.find((entry) => entry.id === "G8")!;
    const result = run(math, [
      proposal("p1", { text: g8.text.toUpperCase().replace(/\./g, "") }),
      proposal("p2", { text: g8.text.replace("prevent context errors", "prevent context errors in code") }),
      proposal("p3", {
        text: "When a problem asks for a probability, simulate it with code before deriving it.",
      }),
    ]);
    expect(result.notes).toEqual([
      "p1: repeats G8, dropped",
      "p2: near duplicate of G8 (cosine >= 0.9), dropped",
    ]);
    expect(result.suggestions).toEqual([
      {
        tempId: "P1",
        option: "add",
        text: "When a problem asks for a probability, simulate it with code before deriving it.",
        reason: "reason of p3",
        sources: ["p3"],
      },
    ]);
    expect(result.stats).toMatchObject({ proposals: 3, suggestions: 1, dropped: 2 });
  });

  it("collapses duplicate proposals of several groups into one suggestion with all sources", () => {
    const text = "When counting integers in a closed range, include both endpoints.";
    const result = run(
      math,
      [
        proposal("p1", { text }),
        proposal("p2", { text: "when counting integers in a closed range include both endpoints" }),
        proposal("p3", { text: "When counting integers in a closed range, always include both endpoints." }),
        proposal("p4", { text: "When counting integers in a closed range, exclude both endpoints." }),
      ],
      0.8,
    );
    const adds = result.suggestions.filter((s) => s.option === "add");
    // p4 says the opposite: a conflict for later, never folded into a duplicate.
    expect(adds.map((s) => s.sources)).toEqual([["p1", "p2", "p3"], ["p4"]]);
    expect(adds[0]!.reason).toBe("reason of p1 (proposed by 3 groups)");
    expect(result.stats.collapsed).toBe(2);
  });

  it("resolves contradictory proposals on one id by majority, a tie keeping the entry", () => {
    const result = run(math, [
      proposal("p1", { op: "delete", id: "G3" }),
      proposal("p2", { op: "delete", id: "G3" }),
      proposal("p3", {
        op: "modify",
        id: "G3",
        text: "When parallel lines are crossed in zigzags, sum the angles on each side.",
      }),
      proposal("p4", { op: "delete", id: "G4" }),
      proposal("p5", {
        op: "modify",
        id: "G4",
        text: "When counting arrangements, apply Burnside's lemma to cycle structures.",
      }),
    ]);
    expect(result.notes).toEqual([
      "G3: 2 proposals delete it, 1 modify it: delete wins, p3 dropped",
      "G4: 1 proposals modify it, 1 delete it: the entry is kept, p4 dropped",
    ]);
    expect(result.suggestions.map((s) => [s.tempId, s.option, s.targetId, s.sources])).toEqual([
      ["P1", "delete", "G3", ["p1", "p2"]],
      ["P2", "modify", "G4", ["p5"]],
    ]);
  });

  it("drops malformed proposals and turns a modify of an unknown id into an addition", () => {
    const library = [...math, makeExperience({ id: "G40", status: "archived", text: "When lost, guess." })];
    const result = run(library, [
      proposal("p1", {}),
      proposal("p2", { op: "delete", id: "G99" }),
      proposal("p3", { op: "modify", id: "G99", text: "When a sum telescopes, write out the first terms." }),
      proposal("p4", { op: "modify", id: "G40", text: "When lost, guess smartly." }),
      proposal("p5", { op: "modify", id: "G1" }),
      proposal("p6", { op: "modify", id: "G1", text: math[1]!.text }),
      proposal("p7", { text: "when lost, guess." }),
    ]);
    expect(result.notes).toEqual([
      "p1: add without text, dropped",
      "p2: delete of unknown id G99, dropped",
      "p3: modify of unknown id G99: kept as a new entry",
      "p4: modify of G40 is archived: kept as a new entry",
      "p5: modify G1 without text, dropped",
      "p6: modify G1 does not change its text, dropped",
      "p7: repeats archived G40 (archived: fixture), dropped",
    ]);
    expect(result.suggestions.map((s) => s.sources)).toEqual([["p3"], ["p4"]]);
  });

  it("merges near-duplicate entries already in the library, keeping the best wording", () => {
    const library = [
      makeExperience({
        id: "G1",
        text: "When a web search returns nothing, change the keywords before retrying.",
      }),
      makeExperience({
        id: "G2",
        status: "candidate",
        text: "When a web search returns nothing, change the keywords before retrying again.",
      }),
      makeExperience({ id: "G3", text: "When a page is paywalled, look for secondary citations." }),
    ];
    const result = run(library, [], 0.85);
    expect(result.libraryMerges).toEqual([
      {
        op: "merge",
        ids: ["G1", "G2"],
        text: library[0]!.text,
        reason: expect.stringMatching(/^near-duplicate entries \(cosine 0\.\d\d\): kept the wording of G1$/),
      },
    ]);
  });

  it("asks the model to rewrite library entries over the word limit that nothing else touches", () => {
    const result = consolidationPrepass({
      library: math,
      proposals: [proposal("p1", { op: "delete", id: "G2" })],
      embeddings: embeddingsFor(math, []),
      wordLimit: 32,
      nearDuplicateSimilarity: 0.9,
    });
    expect(result.suggestions.map((s) => [s.tempId, s.option, s.targetId, s.sources])).toEqual([
      ["P1", "delete", "G2", ["p1"]],
      ["P2", "modify", "G5", []],
    ]);
    expect(result.suggestions[1]!.reason).toBe(
      "over the 32-word limit (36 words): rewrite it within the limit",
    );
  });

  it("accounts for every proposal of a noisy batch over the real web library", () => {
    const web = readRealLibrary("web").map((entry) => makeExperience({ ...entry, domain: "web" }));
    const proposals = [
      ...web.slice(0, 10).map((entry, index) => proposal(`dup${index}`, { text: entry.text })),
      ...web.slice(10, 15).map((entry, index) =>
        proposal(`mod${index}`, {
          op: "modify",
          id: entry.id,
          text: `${entry.text} Prefer official sources.`,
        }),
      ),
      proposal("new1", {
        text: "When a table has merged header cells, read each column's full header path before extracting values.",
      }),
    ];
    const result = run(web, proposals);
    const accounted = new Set(result.suggestions.flatMap((s) => s.sources));
    for (const note of result.notes)
      for (const match of note.matchAll(/\b(dup\d+|mod\d+|new\d+)\b/g)) accounted.add(match[1]!);
    expect([...accounted].sort()).toEqual(proposals.map((p) => p.proposalId).sort());
    expect(result.suggestions.filter((s) => s.option === "modify")).toHaveLength(5);
  });
});
