import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The real experience libraries vendored in the repository (see test-data/README.md). */
export type RealLibraryName = "math" | "web";

/**
 * Absolute path of a real experience library learned by DeepSeek with the paper's reference implementation
 * (youtu-agent, MIT), vendored at `test-data/youtu-agent-libraries/{math,web}.json` in plain `{"G0": "text"}`
 * form: `math` has 27 entries (2 over 32 words), `web` 46 (11 over 32 words). Resolved from this module's
 * location (packages/protocol/{src,dist}/testing), so it works in any clone of the repository.
 */
export function realLibraryFile(name: RealLibraryName): string {
  return fileURLToPath(new URL(`../../../../test-data/youtu-agent-libraries/${name}.json`, import.meta.url));
}

/** A real library as `{ id: text }` in file order; throws naming the file if it is missing or malformed. */
export function readRealLibrary(name: RealLibraryName): Record<string, string> {
  const file = realLibraryFile(name);
  if (!existsSync(file)) {
    throw new Error(
      `real library ${name} not found at ${file} (it is vendored in test-data/youtu-agent-libraries)`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`real library ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    Array.isArray(parsed) ||
    !Object.values(parsed).every((text) => typeof text === "string")
  ) {
    throw new Error(`real library ${file} is not a {"G0": "text", ...} object`);
  }
  return parsed as Record<string, string>;
}
