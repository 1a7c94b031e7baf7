import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { retailToolSpecs } from "@tfgrpo/tau2-retail";
import { describe, expect, it } from "vitest";
import { createSuite } from "../suites/create-suite.js";
import { lexicon } from "./lexicon.js";

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
  return [...source.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? "",
  );
}

const criticText = normalise(
  sourceFiles(criticDirectory)
    .flatMap((file) => literals(readFileSync(file, "utf8")))
    .join("\n"),
);

const publicText = normalise(
  [
    readFileSync(path.join(repositoryRoot, "test-data/tau2-bench-retail/policy.md"), "utf8"),
    ...retailToolSpecs.flatMap((tool) => [tool.name, JSON.stringify(tool)]),
    ...(["math", "web"] as const).flatMap((domain) =>
      createSuite({ domain, seed: 3, size: domain === "math" ? 400 : 120, split: "test" }).map((task) => task.question),
    ),
  ].join("\n"),
);

/** Lexicon phrases of `minimum` words or more that the critic's text uses and the public text does not. */
function sharedPrivately(
  vocabulary: Readonly<Record<string, readonly string[]>>,
  critic: string,
  open: string,
  minimum: number,
): string[] {
  const shared: string[] = [];
  for (const [notion, phrases] of Object.entries(vocabulary))
    for (const phrase of phrases) {
      const words = normalise(phrase).trim();
      if (words.split(" ").length < minimum) continue;
      if (critic.includes(` ${words} `) && !open.includes(` ${words} `)) shared.push(`${notion}: "${phrase}"`);
    }
  return shared;
}

describe("the reader's vocabulary is not the critic's", () => {
  it("shares no phrase of three words or more with the critic, except the domain's public wording", () => {
    expect(sharedPrivately(lexicon, criticText, publicText, 3)).toEqual([]);
  });

  it("finds a phrase planted in both, and lets one the public text uses pass", () => {
    const vocabulary = { PLANTED: ["every item at once", "original payment method"] };
    const critic = normalise("Send every item at once, to the original payment method.");
    expect(sharedPrivately(vocabulary, critic, publicText, 3)).toEqual(['PLANTED: "every item at once"']);
  });
});
