import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { retailToolSpecs } from "@tfgrpo/tau2-retail";
import { describe, expect, it } from "vitest";
import { allPitfalls } from "../pitfalls/catalog.js";
import { repairPitfalls } from "../pitfalls/repair-pitfalls.js";
import { retailPitfalls } from "../pitfalls/retail-pitfalls.js";
import { createSuite } from "../suites/create-suite.js";
import { lexicon } from "./lexicon.js";
import { contentTokens, readLesson, readLessonWithout } from "./read-lesson.js";

// The policy reads lessons by meaning; the sim's critic writes lessons in its own words. If the reader knew the
// critic's phrases, a lesson the loop learned would be read because its wording is the critic's, and lessons written
// by anyone else would not: every figure would measure how well two of the sim's own files agree. So the reader's
// vocabulary and the critic's sentences may share a phrase only where both take it from the public text a real model
// and a real critic would both see: the domain's policy, its tools' names and descriptions, the task questions.

const here = path.dirname(fileURLToPath(import.meta.url));
const criticDirectory = path.resolve(here, "../critic");
const repositoryRoot = path.resolve(here, "../../../..");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.includes(".test") ? [full] : [];
  });
}

const normalise = (text: string) =>
  ` ${text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[^a-z0-9'_]+/g, " ")
    .trim()} `;

/** The string literals of a source file: what the critic can write (its comments are not its words). */
function literals(source: string): string[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/^\s*\/\/.*$/gm, " ")
    .replace(/([;,{)])\s*\/\/.*$/gm, "$1");
  return [...code.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? "",
  );
}

// One literal per line: a phrase never runs from one string into the next.
const criticText = sourceFiles(criticDirectory)
  .flatMap((file) => literals(readFileSync(file, "utf8")))
  .join(" | ");

const publicText = [
  readFileSync(path.join(repositoryRoot, "test-data/tau2-bench-retail/policy.md"), "utf8"),
  ...retailToolSpecs.flatMap((tool) => [tool.name, JSON.stringify(tool)]),
  ...(["math", "web"] as const).flatMap((domain) =>
    createSuite({ domain, seed: 3, size: domain === "math" ? 400 : 120, split: "test" }).map(
      (task) => task.question,
    ),
  ),
].join(" | ");

/**
 * Lexicon phrases of three words or more whose key (the words the reader matches on: stemmed, stop words out) runs
 * through the critic's text and not through the public text: "part of a count" and "part of the count" are one
 * phrase to the reader.
 */
function sharedPrivately(
  vocabulary: Readonly<Record<string, readonly string[]>>,
  critic: string,
  open: string,
): string[] {
  const keyed = (text: string) => ` ${contentTokens(text).join(" ")} `;
  const criticKeys = keyed(critic);
  const openKeys = keyed(open);
  const shared: string[] = [];
  for (const [notion, phrases] of Object.entries(vocabulary))
    for (const phrase of phrases) {
      if (normalise(phrase).trim().split(" ").length < 3) continue;
      const key = contentTokens(phrase).join(" ");
      if (key === "" || !key.includes(" ")) continue;
      if (criticKeys.includes(` ${key} `) && !openKeys.includes(` ${key} `))
        shared.push(`${notion}: "${phrase}"`);
    }
  return shared;
}

/** Sentences the critic writes (its literals of six words or more, a template's placeholders as "x"). */
const criticSentences = sourceFiles(criticDirectory)
  .flatMap((file) => literals(readFileSync(file, "utf8")))
  .map((text) => text.replace(/\$\{[^}]*\}/g, "x"))
  .filter((text) => text.split(/\s+/).length >= 6)
  // A sentence, not a word list (an import line) or a review tag ("[identity] The profile was …": stage 1's summary).
  .filter((text) => /\b(?:the|a|an|to|of|is|and|each|by|per|with|for|in|when|before|not)\b/i.test(text))
  .filter((text) => !text.startsWith("["))
  // Not code that a quote inside a regular expression made look like a string.
  .filter((text) => !/=>|\?\?|\.exec\(|\?\.|\breturn\b|;\s*$/.test(text));

const pitfalls = [...allPitfalls, ...retailPitfalls, ...repairPitfalls];

/** Critic sentences that act on a trap only through phrases the reader shares with the critic. */
function readOnlyThroughShared(shared: readonly string[]): string[] {
  const excluded = new Set(
    shared.map((entry) => contentTokens(entry.replace(/^[A-Z]+: "|"$/g, "")).join(" ")),
  );
  const found: string[] = [];
  for (const text of criticSentences)
    for (const pitfall of pitfalls) {
      const full = readLesson(pitfall.reading, text).effect;
      if (full !== "helps" && full !== "hurts") continue;
      const without = readLessonWithout(pitfall.reading, text, excluded).effect;
      if (without !== full) found.push(`${pitfall.id} (${full} -> ${without}): ${text}`);
    }
  return found;
}

describe("the reader's vocabulary is not the critic's", () => {
  it("reads no lesson the critic writes only through a phrase the critic uses", () => {
    const shared = sharedPrivately(lexicon, criticText, publicText);
    expect(criticSentences.length).toBeGreaterThan(50);
    expect(readOnlyThroughShared(shared)).toEqual([]);
  });

  it("finds a phrase planted in both, and lets one the public text uses pass", () => {
    const vocabulary = { PLANTED: ["all the items together", "original payment method"] };
    const critic = "Send all items together, to the original payment method.";
    expect(sharedPrivately(vocabulary, critic, publicText)).toEqual(['PLANTED: "all the items together"']);
  });

  it("finds a critic lesson the reader reads only through a shared phrase", () => {
    // Every phrase of the lexicon counts as shared: then no critic lesson keeps its reading.
    const everything = Object.entries(lexicon).flatMap(([notion, phrases]) =>
      phrases.map((phrase) => `${notion}: "${phrase}"`),
    );
    expect(readOnlyThroughShared(everything).length).toBeGreaterThan(10);
  });
});
