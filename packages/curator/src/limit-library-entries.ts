import type { Experience, Operation } from "@tfgrpo/protocol";
import { projectLibrary } from "./project-library.js";
import { enforceWordLimit } from "./word-limit.js";

/**
 * The last guard of the word limit: any live entry still over it after consolidation (an imported or old entry the
 * model did not rewrite) is shortened in this version. Texts written by this operation set were already fitted.
 */
export function limitLibraryEntries(
  library: readonly Experience[],
  operations: readonly Operation[],
  wordLimit: number,
): { operations: Operation[]; notes: string[] } {
  const out = [...operations];
  const notes: string[] = [];
  for (const entry of projectLibrary(library, operations)) {
    if (entry.created || entry.rewritten) continue;
    const limited = enforceWordLimit(entry.text, wordLimit);
    if (!limited.shortened) continue;
    out.push({
      op: "modify",
      id: entry.key,
      text: limited.text,
      reason: `shortened to the ${wordLimit}-word limit (was over it)`,
    });
    notes.push(`${entry.key}: over ${wordLimit} words and not rewritten by the model, shortened`);
  }
  return { operations: out, notes };
}
