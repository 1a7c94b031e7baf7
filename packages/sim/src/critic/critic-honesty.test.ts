import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The critic knows only what a real critic model would: it may not read the policy's pitfalls, the task suites,
// the world or any other role's knowledge, and none of its words come from the pitfall catalog.

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.resolve(here, "..");

const criticFiles = readdirSync(here)
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
  .map((name) => path.join(here, name));

const forbidden = [
  /^pitfalls\//,
  /^policy\//,
  /^suites\//,
  /^world\.ts$/,
  /^corpus[^/]*\.ts$/,
  /^experience-reading\.ts$/,
  /^curator\//,
  /^embeddings\.ts$/,
  /^direct\//,
];
const allowedOutside = [/^text\//, /^hash\.ts$/, /^behaviour\.ts$/, /^chat-request\.ts$/];

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/gm),
    ...text.matchAll(/^\s*import\s+["']([^"']+)["']/gm),
    ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ].map((m) => m[1]!);
}

describe("what the simulated critic may know", () => {
  it("imports nothing from the policy, the pitfalls, the suites, the world or other roles", () => {
    expect(criticFiles.length).toBeGreaterThan(5);
    for (const file of criticFiles) {
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith(".")) {
          expect(["@tfgrpo/protocol", "zod"], `${path.basename(file)} imports ${specifier}`).toContain(
            specifier,
          );
          continue;
        }
        const resolved = path
          .relative(src, path.resolve(path.dirname(file), specifier))
          .replace(/\.js$/, ".ts");
        if (resolved.startsWith("critic/")) continue;
        expect(
          forbidden.some((pattern) => pattern.test(resolved)),
          `${path.basename(file)} imports ${resolved}`,
        ).toBe(false);
        expect(
          allowedOutside.some((pattern) => pattern.test(resolved)),
          `${path.basename(file)} imports ${resolved}`,
        ).toBe(true);
      }
    }
  });

  it("shares no phrase with the pitfall catalog", () => {
    const pitfallsDir = path.join(src, "pitfalls");
    let catalog: string[] = [];
    try {
      catalog = readdirSync(pitfallsDir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
    } catch {
      return;
    }
    const phrases = new Set<string>();
    for (const name of catalog) {
      const text = readFileSync(path.join(pitfallsDir, name), "utf8");
      for (const m of text.matchAll(/"((?:[^"\\\n]|\\.){16,})"|`([^`$\n]{16,})`/g)) {
        const phrase = (m[1] ?? m[2] ?? "").trim().toLowerCase();
        if (phrase.split(/\s+/).length >= 3) phrases.add(phrase);
      }
    }
    for (const file of [
      ...criticFiles,
      ...readdirSync(here)
        .filter((n) => n.endsWith(".test.ts"))
        .map((n) => path.join(here, n)),
    ]) {
      const text = readFileSync(file, "utf8").toLowerCase();
      const shared = [...phrases].filter((phrase) => text.includes(phrase));
      expect(shared, path.basename(file)).toEqual([]);
    }
  });
});
