import { experienceIdSchema, type LibrarySnapshot, safeParseJson } from "@tfgrpo/protocol";
import { experienceOrdinal } from "../library/plan-operations.js";
import {
  type LibraryFileEntry,
  type LibraryFileProblem,
  libraryFileError,
  type ParsedLibraryFile,
} from "./library-file.js";

/**
 * The `{"G0": "text", ...}` form Training-Free GRPO's reference implementation writes (experiences.json): the entries
 * an actor sees (archived ones left out), nothing else. Indented by one space and without a final newline, exactly
 * like the reference files, so a library imported from one exports back to the same bytes.
 */
export function renderLibraryPlain(snapshot: LibrarySnapshot): string {
  const visible = snapshot.experiences
    .filter((e) => e.status !== "archived")
    .sort((a, b) => experienceOrdinal(a.id) - experienceOrdinal(b.id));
  return JSON.stringify(Object.fromEntries(visible.map((e) => [e.id, e.text])), null, 1);
}

export function parseLibraryPlain(text: string, file: string): ParsedLibraryFile {
  const json = safeParseJson(text.replace(/^\uFEFF/, ""));
  if (!json.success) throw libraryFileError(file, [{ entry: null, field: null, problem: json.error }]);
  const value = json.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw libraryFileError(file, [
      { entry: null, field: null, problem: 'expected a JSON object like {"G0": "text", "G1": "text"}' },
    ]);
  }
  const problems: LibraryFileProblem[] = [];
  const entries: LibraryFileEntry[] = [];
  for (const [key, entryText] of Object.entries(value)) {
    const id = experienceIdSchema.safeParse(key);
    if (!id.success)
      problems.push({ entry: JSON.stringify(key), field: "id", problem: id.error.issues[0]!.message });
    if (typeof entryText !== "string" || entryText.trim() === "") {
      const got =
        typeof entryText === "string" ? "an empty string" : entryText === null ? "null" : typeof entryText;
      problems.push({
        entry: JSON.stringify(key),
        field: "text",
        problem: `expected a non-empty string, got ${got}`,
      });
      continue;
    }
    if (id.success) entries.push({ id: id.data, text: entryText, fields: {} });
  }
  if (problems.length > 0) throw libraryFileError(file, problems);
  return { format: "plain", domain: null, entries };
}
