import {
  domainSchema,
  type Experience,
  experienceSchema,
  formatPath,
  type LibrarySnapshot,
  safeParseJson,
} from "@tfgrpo/protocol";
import { z } from "zod";
import {
  type LibraryFileEntry,
  type LibraryFileProblem,
  libraryFileError,
  libraryFormatName,
  libraryFormatVersion,
  type ParsedLibraryFile,
} from "./library-file.js";

const libraryJsonHeaderSchema = z.object({
  format: z.literal(libraryFormatName),
  formatVersion: z.literal(libraryFormatVersion),
  domain: domainSchema,
  version: z.number().int().nonnegative().nullable(),
  experiences: z.array(z.unknown()),
});

/** The full-fidelity form: every entry with status, scope, stats, provenance and history. Archived entries included. */
export function renderLibraryJson(snapshot: LibrarySnapshot): string {
  const document = {
    format: libraryFormatName,
    formatVersion: libraryFormatVersion,
    domain: snapshot.domain,
    version: snapshot.version,
    experiences: snapshot.experiences,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export function parseLibraryJson(text: string, file: string): ParsedLibraryFile {
  const json = safeParseJson(text.replace(/^\uFEFF/, ""));
  if (!json.success) throw libraryFileError(file, [{ entry: null, field: null, problem: json.error }]);
  const header = libraryJsonHeaderSchema.safeParse(json.value);
  if (!header.success) {
    throw libraryFileError(
      file,
      header.error.issues.map((issue) => ({
        entry: null,
        field: formatPath(issue.path) || "(root)",
        problem: `${issue.message} (a full tfgrpo library export; use --format plain for {"G0": "text"} files)`,
      })),
    );
  }
  const problems: LibraryFileProblem[] = [];
  const entries: LibraryFileEntry[] = [];
  const seen = new Map<string, number>();
  header.data.experiences.forEach((raw, index) => {
    const rawId = typeof raw === "object" && raw !== null ? (raw as { id?: unknown }).id : undefined;
    const label = typeof rawId === "string" ? `${rawId} (experiences[${index}])` : `experiences[${index}]`;
    const parsed = experienceSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push({ entry: label, field: formatPath(issue.path) || "(entry)", problem: issue.message });
      }
      return;
    }
    const previous = seen.get(parsed.data.id);
    if (previous !== undefined) {
      problems.push({ entry: label, field: "id", problem: `duplicates experiences[${previous}]` });
      return;
    }
    seen.set(parsed.data.id, index);
    entries.push(toFileEntry(parsed.data));
  });
  if (problems.length > 0) throw libraryFileError(file, problems);
  return { format: "json", domain: header.data.domain, version: header.data.version, entries };
}

function toFileEntry(experience: Experience): LibraryFileEntry {
  const { id, domain: _domain, text, ...fields } = experience;
  return { id, text, fields };
}
