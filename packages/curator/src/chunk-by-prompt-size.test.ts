import { describe, expect, it } from "vitest";
import { chunkByPromptSize } from "./chunk-by-prompt-size.js";

interface Item {
  id: string;
  tokens: number;
  target?: string;
  near?: string[];
}

const library = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`G${index}`, 10]));

function chunk(items: Item[], maxTokens: number) {
  return chunkByPromptSize({
    items,
    itemTokens: (item) => item.tokens,
    contextOf: (item) => ({ required: item.target ? [item.target] : [], optional: item.near ?? [] }),
    contextTokens: (id) => library[id] ?? 0,
    allContext: Object.keys(library),
    overhead: 50,
    maxTokens,
  });
}

describe("chunkByPromptSize", () => {
  it("puts everything in one prompt with the whole library when it fits", () => {
    const chunks = chunk(
      [
        { id: "a", tokens: 20 },
        { id: "b", tokens: 20 },
      ],
      300,
    );
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ tokens: 50 + 200 + 40, oversize: false });
    expect(chunks[0]!.context).toHaveLength(20);
  });

  it("splits a large batch so that no chunk exceeds the budget, each with the context its items need", () => {
    const items: Item[] = Array.from({ length: 30 }, (_, index) => ({
      id: `p${index}`,
      tokens: 15,
      target: index % 3 === 0 ? `G${index % 20}` : undefined,
      near: [`G${(index + 1) % 20}`, `G${(index + 2) % 20}`],
    }));
    const chunks = chunk(items, 150);
    expect(chunks.length).toBeGreaterThan(3);
    // Every item exactly once (first-fit may put a later item into an earlier chunk with room).
    expect(chunks.flatMap((c) => c.items.map((item) => item.id)).sort()).toEqual(
      items.map((item) => item.id).sort(),
    );
    for (const piece of chunks) {
      expect(piece.tokens).toBeLessThanOrEqual(150);
      expect(piece.oversize).toBe(false);
      const computed =
        50 + piece.items.reduce((sum, item) => sum + item.tokens, 0) + piece.context.length * 10;
      expect(piece.tokens).toBe(computed);
      for (const item of piece.items) if (item.target) expect(piece.context).toContain(item.target);
    }
  });

  it("adds optional neighbours only while they fit, required context always", () => {
    const [only] = chunk([{ id: "a", tokens: 60, target: "G1", near: ["G2", "G3", "G4", "G5"] }], 140);
    expect(only!.context).toEqual(["G1", "G2", "G3"]);
    expect(only!.tokens).toBe(140);
  });

  it("gives an item too large even alone a flagged chunk of its own instead of dropping it", () => {
    const chunks = chunk(
      [
        { id: "small", tokens: 10 },
        { id: "huge", tokens: 500 },
        { id: "small2", tokens: 10 },
      ],
      120,
    );
    expect(chunks.map((c) => [c.items.map((i) => i.id), c.oversize])).toEqual([
      [["small", "small2"], false],
      [["huge"], true],
    ]);
  });

  it("keeps a group whole in one chunk whenever it fits one, filling earlier chunks' room first-fit", () => {
    const item = (id: string, tokens: number): Item => ({ id, tokens });
    const [a, b, c, d, e] = [item("a", 40), item("b", 40), item("c", 30), item("d", 30), item("e", 20)];
    // Budget 150 - overhead 50 = 100 tokens of items per chunk.
    const chunks = chunkByPromptSize({
      items: [a, b, c, d, e],
      groups: [[a, b], [c, d], [e]],
      itemTokens: (it) => it.tokens,
      contextOf: () => ({ required: [], optional: [] }),
      contextTokens: () => 10,
      allContext: Object.keys(library),
      overhead: 50,
      maxTokens: 150,
    });
    expect(chunks.map((piece) => piece.items.map((it) => it.id))).toEqual([
      ["a", "b", "e"],
      ["c", "d"],
    ]);
    for (const piece of chunks) expect(piece.tokens).toBeLessThanOrEqual(150);
  });

  it("places a group larger than a chunk item by item, never over the budget", () => {
    const items: Item[] = Array.from({ length: 9 }, (_, index) => ({ id: `g${index}`, tokens: 30 }));
    const chunks = chunkByPromptSize({
      items,
      groups: [items],
      itemTokens: (it) => it.tokens,
      contextOf: () => ({ required: [], optional: [] }),
      contextTokens: () => 10,
      allContext: Object.keys(library),
      overhead: 50,
      maxTokens: 150,
    });
    expect(chunks.map((piece) => piece.items.length)).toEqual([3, 3, 3]);
    for (const piece of chunks) expect(piece.tokens).toBeLessThanOrEqual(150);
  });
});
