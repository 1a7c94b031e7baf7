import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The sim's learning evidence is only worth something if no simulated role reads another's answer key (DESIGN §7).
 * This test follows the imports of every module the critic, the curator, the embeddings and the direct-experience
 * writer load, transitively, and fails if any reaches the world's knowledge: the pitfalls, the policy's reading, the
 * task suites or the world registry.
 */
const source = dirname(fileURLToPath(import.meta.url));

const forbidden = [
  "pitfalls/",
  "policy/",
  "suites/",
  "world.ts",
  "corpus.ts",
  "corpus-search.ts",
  "experience-reading.ts",
  "sim-policy.ts",
];

const blindRoles: Record<string, { entry: string; mayNotReach: string[] }> = {
  critic: { entry: "critic", mayNotReach: [...forbidden, "curator/", "direct/", "embeddings.ts"] },
  curator: { entry: "curator", mayNotReach: [...forbidden, "critic/", "direct/"] },
  embeddings: { entry: "embeddings.ts", mayNotReach: [...forbidden, "critic/", "curator/", "direct/"] },
  "direct experiences": { entry: "direct", mayNotReach: [...forbidden, "critic/", "curator/"] },
  // The simulated user knows its scenario only (the prompt it is sent), never the world's tasks or the agent's traps.
  user: { entry: "user", mayNotReach: [...forbidden, "critic/", "curator/", "direct/"] },
};

function filesOf(entry: string): string[] {
  const path = join(source, entry);
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => join(path, name));
}

function localImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?:import|export)[^"']*?from\s+["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g,
  )) {
    const specifier = (m[1] ?? m[2])!;
    out.push(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
  }
  return out;
}

function reachable(entryFiles: readonly string[]): Map<string, string> {
  // file -> the file that imported it (for a readable failure)
  const seen = new Map<string, string>();
  const queue = entryFiles.map((file) => [file, "(entry)"] as const);
  for (const [file, from] of queue) {
    if (seen.has(file)) continue;
    seen.set(file, from);
    for (const next of localImports(file)) if (!seen.has(next)) queue.push([next, file] as const);
  }
  return seen;
}

describe("no simulated role reads another's knowledge", () => {
  for (const [role, rule] of Object.entries(blindRoles)) {
    it(`the ${role} reaches none of ${rule.mayNotReach.join(", ")}`, () => {
      const files = filesOf(rule.entry);
      expect(files.length).toBeGreaterThan(0);
      const leaks = [...reachable(files)]
        .map(([file, from]) => [relative(source, file), relative(source, from)] as const)
        .filter(([file]) => rule.mayNotReach.some((bad) => file.startsWith(bad) || file === bad))
        .map(([file, from]) => `${file} (imported by ${from})`);
      expect(leaks).toEqual([]);
    });
  }
});
