import type { Proposal } from "@tfgrpo/protocol";
import { makeExperience } from "@tfgrpo/protocol/testing";
import { createSimModel } from "@tfgrpo/sim";
import { planOperations } from "@tfgrpo/store";
import { describe, expect, it } from "vitest";
import { consolidationPrepass } from "./consolidation-prepass.js";
import { consolidationAnswerSchema, consolidationMessages, suggestionLine } from "./consolidation-prompt.js";
import { hashingEmbed } from "./hashing-embedder.js";
import { mapConsolidationAnswer } from "./map-consolidation-answer.js";

const proposal = (id: string, text: string, whenNot?: string): Proposal => ({
  proposalId: id,
  op: "add",
  text,
  ...(whenNot ? { whenNot } : {}),
  reason: "the failing attempts averaged the means",
  groupId: `g-${id}`,
  taskId: `t-${id}`,
});

const proposals = [
  proposal(
    "s1:P1",
    "When combining class averages into one overall mean, weight each class's mean by its number of students.",
    "every group has the same size",
  ),
  proposal(
    "s1:P2",
    "When a price changes by several percentages in turn, apply each change to the price it left.",
    "only one percentage change is applied",
  ),
  proposal("s1:P3", "When counting days between two dates, include both the first and the last day."),
];

function consolidate(
  library = [makeExperience({ id: "G1", text: "When reading a table, check its units." })],
) {
  const texts = [...library.map((entry) => entry.text), ...proposals.map((p) => p.text!)];
  const prepass = consolidationPrepass({
    library,
    proposals,
    embeddings: new Map(texts.map((text) => [text, hashingEmbed(text)])),
    wordLimit: 32,
    nearDuplicateSimilarity: 0.9,
  });
  const messages = consolidationMessages({
    domain: "math",
    wordLimit: 32,
    experiences: library,
    suggestions: prepass.suggestions,
  });
  // The simulated curator answers the prompt as a model would (SIMULATED).
  const answer = createSimModel({ seed: 3 }).complete({
    model: "sim-curator",
    messages: messages.map((message) => ({ role: message.role, content: message.content })),
    response_format: { type: "json_object" },
  });
  const parsed = consolidationAnswerSchema.parse(JSON.parse(answer.content!));
  const mapped = mapConsolidationAnswer({
    answer: parsed,
    suggestions: prepass.suggestions,
    library: new Map(library.map((entry) => [entry.id, entry])),
    wordLimit: 32,
  });
  const plan = planOperations({
    domain: "math",
    version: 2,
    nextOrdinal: 2,
    runId: "r",
    now: "2025-01-01T00:00:00.000Z",
    ops: mapped.operations,
    lookup: (id) => library.find((entry) => entry.id === id),
  });
  return { prepass, messages, plan };
}

describe("a proposal's whenNot reaches the stored entry's scope", () => {
  it("shows it to the curator model in the suggestion line", () => {
    const { prepass, messages } = consolidate();
    expect(prepass.suggestions.map((suggestion) => suggestion.whenNot)).toEqual([
      "every group has the same size",
      "only one percentage change is applied",
      undefined,
    ]);
    expect(suggestionLine(prepass.suggestions[0]!, 32)).toContain(
      '"when_not":"every group has the same size"',
    );
    expect(messages.at(-1)!.content).toContain('"when_not"');
  });

  it("ends as scope.whenNot on the new entries, and nowhere else", () => {
    const { plan } = consolidate();
    const byText = new Map(plan.changed.map((entry) => [entry.text, entry]));
    expect(byText.get(proposals[0]!.text!)?.scope).toEqual({ whenNot: "every group has the same size" });
    expect(byText.get(proposals[1]!.text!)?.scope).toEqual({
      whenNot: "only one percentage change is applied",
    });
    expect(byText.get(proposals[2]!.text!)).toBeDefined();
    expect(byText.get(proposals[2]!.text!)?.scope).toBeUndefined();
  });
});

describe("mapConsolidationAnswer keeps a scope through the model's rewrites", () => {
  const suggestions = [
    {
      tempId: "P1",
      option: "add" as const,
      text: "When merging means, weight by size.",
      whenNot: "equal sizes",
      reason: "r",
      sources: ["a"],
    },
    {
      tempId: "P2",
      option: "add" as const,
      text: "When combining averages, use group sizes.",
      reason: "r",
      sources: ["b"],
    },
  ];
  const map = (operations: unknown[]) =>
    mapConsolidationAnswer({
      answer: { operations } as never,
      suggestions,
      library: new Map([
        [
          "G1",
          makeExperience({ id: "G1", text: "When averaging, count items.", scope: { whenNot: "one item" } }),
        ],
      ]),
      wordLimit: 32,
    }).operations;

  it("inherits the suggestion's clause when the model rewrites it without one, and prefers the model's own", () => {
    expect(
      map([
        { option: "modify", experience_id: "P1", experience: "When merging means, weight each by its size." },
      ]),
    ).toMatchObject([{ op: "add", scope: { whenNot: "equal sizes" } }]);
    expect(
      map([
        {
          option: "modify",
          experience_id: "P1",
          experience: "When merging means, weight.",
          when_not: "one group",
        },
      ]),
    ).toMatchObject([{ op: "add", scope: { whenNot: "one group" } }]);
    // An add that writes a suggestion out again keeps that suggestion's clause.
    expect(map([{ option: "add", experience: "When merging means, weight by size." }])).toMatchObject([
      { op: "add", scope: { whenNot: "equal sizes" } },
    ]);
  });

  it("gives a merge the first clause its sources name", () => {
    expect(
      map([
        {
          option: "merge",
          experience_ids: ["P2", "P1"],
          experience: "When combining means, weight by size.",
        },
      ]),
    ).toMatchObject([{ op: "add", scope: { whenNot: "equal sizes" } }]);
    expect(
      map([
        {
          option: "merge",
          experience_ids: ["G1", "P2"],
          experience: "When averaging groups, weight by size.",
        },
      ]),
    ).toMatchObject([{ op: "modify", id: "G1", scope: { whenNot: "one item" } }]);
    expect(
      map([
        { option: "merge", experience_ids: ["P2"], experience: "When averaging groups, weight by size." },
      ])[0],
    ).not.toHaveProperty("scope");
  });
});
