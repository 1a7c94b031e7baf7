import {
  type Experience,
  emptyExperienceStats,
  type LibrarySnapshot,
  librarySnapshotSchema,
} from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import {
  contentWords,
  derangement,
  entriesAsLibrary,
  keywordStub,
  keywordStubTexts,
  placeboDomainPrefix,
  placeboOf,
  shuffledTexts,
  splitLesson,
  wordsOf,
} from "./placebo-libraries.js";
import { otherVendoredLibrary, readVendoredLibrary, vendoredLibraryFile } from "./vendored-libraries.js";

// Lessons in the shapes a library holds: conditional openings, "Topic: advice" (the real DeepSeek libraries), and
// a sentence with neither.
const lessons = [
  "When counting multiples in a closed range, include both endpoints: use range(a, b + 1).",
  "For the overall mean of several classes, weight each class mean by its size before dividing by the total count.",
  "If a quadratic's discriminant b^2 - 4ac is negative, it has no real roots; zero gives one double root.",
  "Result verification: Verify combinatorial results using multiple independent methods.",
  "Always reduce a negative value with Python's % to get the least nonnegative residue, never math.fmod.",
];

const bag = (texts: readonly string[]) =>
  texts
    .flatMap((text) => wordsOf(text).map((w) => w.toLowerCase()))
    .sort()
    .join(" ");

function snapshotOf(texts: readonly string[]): LibrarySnapshot {
  const at = "2026-01-01T00:00:00.000Z";
  const experiences = texts.map(
    (text, i): Experience => ({
      id: `G${i * 2}`,
      domain: "math",
      text,
      status: i === 1 ? "candidate" : "active",
      stats: { ...emptyExperienceStats(), shown: i, success: i / 2 },
      provenance: { runId: "r", version: 1, fromOps: [] },
      history: [],
      createdAt: at,
      updatedAt: at,
    }),
  );
  const archived: Experience = {
    ...experiences[0]!,
    id: "G99",
    text: "An archived lesson.",
    status: "archived",
  };
  return { domain: "math", version: 4, experiences: [...experiences, archived] };
}

describe("keyword stubs", () => {
  it("cut each entry to a topic stub of at most 3 content words from its opening clause", async () => {
    expect(keywordStub(lessons[0]!)).toBe("counting multiples range");
    expect(keywordStub(lessons[3]!)).toBe("Result verification");
    expect(keywordStub(lessons[4]!)).toBe("reduce negative value");
    const real = [
      ...(await readVendoredLibrary("math")).entries,
      ...(await readVendoredLibrary("web")).entries,
    ].map((e) => e.text);
    for (const text of [...lessons, ...real]) {
      const stub = keywordStub(text);
      expect(stub.length, text).toBeGreaterThan(0);
      expect(stub.split(/\s+/).length, text).toBeLessThanOrEqual(3);
      expect(contentWords(stub)).toEqual(stub.split(/\s+/));
      // Every stub word comes from the entry; no negation or advice survives.
      for (const word of stub.split(/\s+/)) expect(wordsOf(text)).toContain(word);
    }
    expect(keywordStubTexts(real)).toEqual(keywordStubTexts(real));
  });
});

describe("shuffled lessons", () => {
  it("split a lesson into situation and action", () => {
    expect(splitLesson(lessons[0]!)).toEqual({
      situation: "When counting multiples in a closed range",
      separator: ", ",
      action: "include both endpoints: use range(a, b + 1).",
    });
    expect(splitLesson(lessons[3]!)).toMatchObject({ situation: "Result verification", separator: ": " });
    expect(splitLesson("one two three four five")).toEqual({
      situation: "one two three",
      separator: " ",
      action: "four five",
    });
  });

  it("keep every word, give no entry its own action, and are deterministic", () => {
    const shuffled = shuffledTexts(lessons, 7);
    expect(shuffledTexts(lessons, 7)).toEqual(shuffled);
    expect(bag(shuffled)).toBe(bag(lessons));
    const parts = lessons.map(splitLesson);
    shuffled.forEach((text, i) => {
      expect(text.startsWith(parts[i]!.situation)).toBe(true);
      expect(text.endsWith(parts[i]!.action)).toBe(false);
      expect(parts.some((p, j) => j !== i && text.endsWith(p.action))).toBe(true);
    });
    expect(() => shuffledTexts(["only one"], 1)).toThrow(/at least two/);
  });

  it("derange every index for any size and seed", () => {
    for (let n = 2; n <= 12; n++)
      for (let seed = 0; seed < 20; seed++) {
        const order = derangement(n, seed);
        expect([...order].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
        expect(order.every((j, i) => j !== i)).toBe(true);
      }
  });
});

describe("placebo snapshots", () => {
  it("keep the live entries' ids, status and stats under a reserved domain named by their content", () => {
    const source = snapshotOf(lessons);
    const stubs = placeboOf("keyword-stubs", source);
    const shuffled = placeboOf("shuffled", source, { seed: 3 });
    for (const placebo of [stubs, shuffled]) {
      librarySnapshotSchema.parse(placebo);
      expect(placebo.domain.startsWith(placeboDomainPrefix)).toBe(true);
      expect(placebo.version).toBe(4);
      expect(placebo.experiences.map((e) => [e.id, e.status, e.stats])).toEqual(
        source.experiences.filter((e) => e.status !== "archived").map((e) => [e.id, e.status, e.stats]),
      );
      expect(placebo.experiences.every((e) => e.domain === placebo.domain)).toBe(true);
    }
    expect(stubs.domain).not.toBe(shuffled.domain);
    expect(placeboOf("keyword-stubs", source)).toEqual(stubs);
    expect(placeboOf("shuffled", source, { seed: 4 }).domain).not.toBe(shuffled.domain);
  });
});

describe("the other-domain library", () => {
  it("reads the vendored real libraries (web for math and other domains, math for web)", async () => {
    expect(otherVendoredLibrary("math")).toBe("web");
    expect(otherVendoredLibrary("aime")).toBe("web");
    expect(otherVendoredLibrary("web")).toBe("math");
    expect(vendoredLibraryFile("web")).toMatch(/test-data\/youtu-agent-libraries\/web\.json$/);
    const web = await readVendoredLibrary("web");
    const math = await readVendoredLibrary("math");
    expect(web.entries).toHaveLength(46);
    expect(math.entries).toHaveLength(27);
    expect(math.entries[0]).toEqual({ id: "G0", text: expect.stringMatching(/^Combinatorial enumeration:/) });
    const library = entriesAsLibrary(web.entries, { version: 1, source: "web.json" });
    librarySnapshotSchema.parse(library);
    expect(library.domain.startsWith(placeboDomainPrefix)).toBe(true);
    expect(library.experiences.map((e) => e.text)).toEqual(web.entries.map((e) => e.text));
    expect(library.experiences.every((e) => e.status === "active" && e.stats.shown === 0)).toBe(true);
  });
});
