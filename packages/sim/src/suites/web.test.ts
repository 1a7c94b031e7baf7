import { describe, expect, it } from "vitest";
import { htmlToText, searchCorpus } from "../corpus-search.js";
import { createWorld } from "../world.js";
import { createSuite } from "./create-suite.js";
import { suiteSplits } from "./math.js";
import { recognizeWebQuestion, scaleDecimal, type WebInstance } from "./web.js";

const world = createWorld(5);

function instanceOf(question: string): WebInstance {
  const instance = recognizeWebQuestion(world.corpus, question);
  if (!instance) throw new Error(`not recognised: ${question}`);
  return instance;
}

describe("web suites", () => {
  const tasks = suiteSplits.flatMap((split) => createSuite({ domain: "web", seed: 5, size: 35, split }));

  it("keep each fact in one split", () => {
    const factOf = (question: string) => {
      const instance = instanceOf(question);
      return `${instance.family.id}:${instance.primary.url}:${instance.answer}`;
    };
    const bySplit = suiteSplits.map(
      (split) => new Set(tasks.filter((t) => t.meta?.split === split).map((t) => factOf(t.question))),
    );
    expect([...bySplit[0]!].filter((f) => bySplit[1]!.has(f) || bySplit[2]!.has(f))).toEqual([]);
    expect([...bySplit[1]!].filter((f) => bySplit[2]!.has(f))).toEqual([]);
  });

  it("put the right value on the primary page and a wrong one where the pitfalls are", () => {
    for (const task of tasks) {
      const instance = instanceOf(task.question);
      expect(instance.answer).toBe(task.answer);
      const primary = world.corpus.byUrl.get(instance.primary.url);
      expect(primary, instance.primary.url).toBeDefined();
      expect(htmlToText(primary!.content)).toContain(instance.primary.value);
      if (instance.snippet) {
        const listing = world.corpus.byUrl.get(instance.snippet.url)!;
        expect(listing.description).toContain(instance.snippet.value);
        expect(instance.snippet.value).not.toBe(instance.primary.value);
      }
      if (instance.outdated) {
        const old = world.corpus.byUrl.get(instance.outdated.url)!;
        expect(old.published! < primary!.published!).toBe(true);
        expect(htmlToText(old.content)).toContain(instance.outdated.value);
        expect(instance.outdated.value).not.toBe(instance.primary.value);
      }
      if (instance.unit) {
        expect(task.answer).toBe(scaleDecimal(instance.primary.value, instance.unit.factor));
        expect(task.answer).not.toBe(instance.primary.value);
      } else if (!instance.snippet) expect(task.answer).toBe(instance.primary.value.replace(/,/g, ""));
    }
  });

  it("finds the tempting wrong source and the right one in the top search results", () => {
    for (const task of tasks.slice(0, 40)) {
      const instance = instanceOf(task.question);
      const urls = searchCorpus(world.corpus, instance.query, 5).map((r) => r.url);
      if (instance.snippet) expect(urls, instance.query).toContain(instance.snippet.url);
      if (instance.outdated) expect(urls, instance.query).toContain(instance.outdated.url);
      expect(urls, instance.query).toContain(instance.primary.url);
    }
  });

  it("labels pages as simulated and gives them real page structure", () => {
    const doc = world.corpus.documents[0]!;
    expect(doc.content).toMatch(/<nav[\s\S]*<article>[\s\S]*<footer>/);
    expect(doc.content).toContain("SIMULATED");
  });

  it("converts decimals exactly", () => {
    expect(scaleDecimal("48.37", 100)).toBe("4837");
    expect(scaleDecimal("1.35", 1000)).toBe("1350");
    expect(scaleDecimal("2.5", 60)).toBe("150");
    expect(scaleDecimal("0.05", 10)).toBe("0.5");
  });

  it("refuses a size the world cannot supply", () => {
    expect(() => createSuite({ domain: "web", seed: 5, size: 5000, split: "train" })).toThrowError(
      /has \d+ train tasks/,
    );
  });
});
