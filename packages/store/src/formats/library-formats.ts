import type { LibrarySnapshot } from "@tfgrpo/protocol";
import type { LibraryFormat } from "../library-store.js";
import { detectLibraryFormat, type ParsedLibraryFile } from "./library-file.js";
import { parseLibraryJson, renderLibraryJson } from "./library-json.js";
import { parseLibraryMarkdown, renderLibraryMarkdown } from "./library-markdown.js";
import { parseLibraryPlain, renderLibraryPlain } from "./library-plain.js";

export function renderLibrary(snapshot: LibrarySnapshot, format: LibraryFormat): string {
  switch (format) {
    case "json":
      return renderLibraryJson(snapshot);
    case "plain":
      return renderLibraryPlain(snapshot);
    case "markdown":
      return renderLibraryMarkdown(snapshot);
  }
}

/** Parses and validates a whole library file; any problem throws one error naming file, entry and field. */
export function parseLibraryFile(
  text: string,
  options: { file?: string; format?: LibraryFormat | "auto" } = {},
): ParsedLibraryFile {
  const file = options.file ?? "(input)";
  const format =
    options.format === undefined || options.format === "auto"
      ? detectLibraryFormat(text, options.file)
      : options.format;
  switch (format) {
    case "json":
      return parseLibraryJson(text, file);
    case "plain":
      return parseLibraryPlain(text, file);
    case "markdown":
      return parseLibraryMarkdown(text, file);
  }
}
