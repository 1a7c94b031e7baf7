import path from "node:path";
import { type Experience, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import type { LibraryFormat } from "../library-store.js";

/** What a library file says about an entry besides its id and text; absent fields get import defaults. */
export type LibraryEntryFields = Partial<Omit<Experience, "id" | "domain" | "text">>;

export interface LibraryFileEntry {
  id: string;
  text: string;
  fields: LibraryEntryFields;
}

export interface ParsedLibraryFile {
  format: LibraryFormat;
  /** The domain the file declares (full JSON and Markdown headers), if any. */
  domain: string | null;
  /** The library version the file was exported from (full JSON), if it says. */
  version?: number | null;
  entries: LibraryFileEntry[];
}

export interface LibraryFileProblem {
  /** Id or index of the entry, null for the file as a whole. */
  entry: string | null;
  field: string | null;
  problem: string;
  line?: number;
}

/** Header of the tfgrpo library formats (full JSON and Markdown). */
export const libraryFormatName = "tfgrpo-library";
export const libraryFormatVersion = 1;

/**
 * One error for every problem of a file, each naming the file, the entry and the field, so the user fixes the file in
 * one pass. Import refuses the file whole.
 */
export function libraryFileError(file: string, problems: readonly LibraryFileProblem[]): TfgrpoError {
  const lines = problems.map((p) => {
    const location = p.line === undefined ? file : `${file}:${p.line}`;
    const entry = p.entry === null ? "" : ` entry ${p.entry}`;
    const field = p.field === null ? "" : ` field "${p.field}"`;
    return `${location}:${entry}${field}${entry || field ? ":" : ""} ${p.problem}`;
  });
  return new TfgrpoError("invalid_input", `cannot import ${file}, nothing changed: ${lines.join("; ")}`, {
    details: { file, problems },
  });
}

/** By extension first (.md, .json), else by content: a JSON object is JSON, anything else Markdown. */
export function detectLibraryFormat(text: string, file?: string): LibraryFormat {
  const extension = file ? path.extname(file).toLowerCase() : "";
  if (extension === ".md" || extension === ".markdown") return "markdown";
  const trimmed = text.replace(/^\uFEFF/, "").trimStart();
  if (extension !== ".json" && !trimmed.startsWith("{")) return "markdown";
  const parsed = safeParseJson(trimmed);
  if (parsed.success && typeof parsed.value === "object" && parsed.value !== null) {
    const record = parsed.value as Record<string, unknown>;
    if ("format" in record || "experiences" in record) return "json";
    return "plain";
  }
  // Unparsable JSON: the JSON parser reports the syntax error with the file name.
  return "json";
}
