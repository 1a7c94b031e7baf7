import { readFileSync } from "node:fs";
import { safeParseJson } from "@tfgrpo/protocol";
import { realLibraryPath } from "@tfgrpo/store/testing";
import { z } from "zod";

/**
 * A real experience library learned by DeepSeek with the paper's reference implementation (youtu-agent, MIT):
 * `math` has 27 entries (2 over 32 words), `web` 46 (11 over 32 words). Entries in file order.
 */
export function readRealLibrary(name: "math" | "web"): { id: string; text: string }[] {
  const file = realLibraryPath(name);
  const parsed = safeParseJson(readFileSync(file, "utf8"), z.record(z.string(), z.string()));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error}`);
  return Object.entries(parsed.value).map(([id, text]) => ({ id, text }));
}
