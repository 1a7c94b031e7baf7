import {
  domainSchema,
  type Experience,
  experienceIdSchema,
  experienceSchema,
  experienceScopeSchema,
  experienceStatsSchema,
  experienceStatusSchema,
  formatPath,
  type LibrarySnapshot,
  lifecycleEventSchema,
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

/*
 * The Markdown form, readable on GitHub and round-tripping exactly:
 *
 *   # Experience library: math, version 3
 *   ```json tfgrpo-library
 *   {"format": "tfgrpo-library", "formatVersion": 1, "domain": "math", "version": 3}
 *   ```
 *   ## G0
 *   The entry's text, as paragraphs.
 *   ```json tfgrpo-entry
 *   {"status": "active", "stats": {...}, "provenance": {...}, "history": [...], ...}
 *   ```
 *
 * The text between a heading and its metadata block is the entry's text (blank lines around it trimmed). A text that
 * Markdown could not carry verbatim (surrounding whitespace, carriage returns, lines that open a heading or a fence)
 * is written inside the metadata as "text" and shown indented; the metadata's text then wins. A section without a
 * metadata block is a hand-written entry: it gets the import defaults.
 */

const entryFenceInfo = "json tfgrpo-entry";
const headerFenceInfo = "json tfgrpo-library";

const entryMetadataSchema = z
  .object({
    text: z.string().min(1).optional(),
    status: experienceStatusSchema.optional(),
    scope: experienceScopeSchema.optional(),
    conflictGroup: z.string().optional(),
    stats: experienceStatsSchema.optional(),
    provenance: experienceSchema.shape.provenance.optional(),
    history: z.array(lifecycleEventSchema).optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
  })
  .strict();

const headerSchema = z.object({
  format: z.literal(libraryFormatName).optional(),
  formatVersion: z.literal(libraryFormatVersion).optional(),
  domain: domainSchema.optional(),
  version: z.number().int().nonnegative().nullable().optional(),
});

export function renderLibraryMarkdown(snapshot: LibrarySnapshot): string {
  const counts = new Map<string, number>();
  for (const e of snapshot.experiences) counts.set(e.status, (counts.get(e.status) ?? 0) + 1);
  const summary = [...counts].map(([status, n]) => `${n} ${status}`).join(", ") || "no entries";
  const out: string[] = [
    `# Experience library: ${snapshot.domain}, version ${snapshot.version}`,
    "",
    `${snapshot.experiences.length} entries (${summary}).`,
    "",
    "<!-- Written by tfgrpo. One `## G<n>` section per entry: its text, then a `json tfgrpo-entry` block of",
    "metadata. `tfgrpo library import` reads this file back exactly; edit texts freely, keep headings and blocks. -->",
    "",
    "```" + headerFenceInfo,
    JSON.stringify(
      {
        format: libraryFormatName,
        formatVersion: libraryFormatVersion,
        domain: snapshot.domain,
        version: snapshot.version,
      },
      null,
      2,
    ),
    "```",
    "",
  ];
  for (const experience of snapshot.experiences) {
    const { id, domain: _domain, text, ...rest } = experience;
    const verbatim = canWriteVerbatim(text);
    const metadata = verbatim ? rest : { text, ...rest };
    out.push(`## ${id}`, "");
    out.push(
      verbatim
        ? text
        : text
            .split("\n")
            .map((line) => `    ${line}`)
            .join("\n"),
      "",
    );
    out.push("```" + entryFenceInfo, metadataJson(metadata), "```", "");
  }
  return out.join("\n");
}

/** One line per field and per history event: short enough to read, still plain JSON. */
function metadataJson(metadata: Record<string, unknown>): string {
  const fields = Object.entries(metadata).map(([key, value]) => {
    const rendered =
      Array.isArray(value) && value.length > 0
        ? `[\n${value.map((item) => `    ${JSON.stringify(item)}`).join(",\n")}\n  ]`
        : JSON.stringify(value);
    return `  ${JSON.stringify(key)}: ${rendered}`;
  });
  return `{\n${fields.join(",\n")}\n}`;
}

function canWriteVerbatim(text: string): boolean {
  return text === text.trim() && !text.includes("\r") && !/^(#|\s{0,3}(```|~~~))/m.test(text);
}

interface Block {
  info: string;
  /** Index of the opening fence line. */
  start: number;
  /** Index of the closing fence line. */
  end: number;
  content: string;
}

export function parseLibraryMarkdown(text: string, file: string): ParsedLibraryFile {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const problems: LibraryFileProblem[] = [];
  const blocks: Block[] = [];
  const headings: number[] = [];
  let open: { marker: string; info: string; start: number } | null = null;
  lines.forEach((line, index) => {
    if (open) {
      const close = /^(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]![0] === open.marker[0] && close[1]!.length >= open.marker.length) {
        blocks.push({
          info: open.info,
          start: open.start,
          end: index,
          content: lines.slice(open.start + 1, index).join("\n"),
        });
        open = null;
      }
      return;
    }
    const fence = /^(`{3,}|~{3,})\s*(.*)$/.exec(line);
    if (fence) open = { marker: fence[1]!, info: fence[2]!.trim(), start: index };
    else if (/^##(\s|$)/.test(line)) headings.push(index);
  });
  const unclosed = open as { start: number } | null;
  if (unclosed) {
    throw libraryFileError(file, [
      { entry: null, field: null, line: unclosed.start + 1, problem: "code fence is never closed" },
    ]);
  }

  let domain: string | null = null;
  const firstHeading = headings[0] ?? lines.length;
  const header = blocks.find((b) => b.info === headerFenceInfo && b.start < firstHeading);
  if (header) {
    const parsed = safeParseJson(header.content, headerSchema);
    if (!parsed.success) {
      problems.push({ entry: null, field: "library header", line: header.start + 1, problem: parsed.error });
    } else domain = parsed.value.domain ?? null;
  } else if (headings.length === 0) {
    throw libraryFileError(file, [
      {
        entry: null,
        field: null,
        problem: 'no entries: expected "## G<n>" sections (see tfgrpo library export)',
      },
    ]);
  }

  const entries: LibraryFileEntry[] = [];
  const seen = new Map<string, number>();
  headings.forEach((headingIndex, k) => {
    const end = headings[k + 1] ?? lines.length;
    const line = headingIndex + 1;
    const rawId = /^##\s+(\S+)/.exec(lines[headingIndex]!)?.[1] ?? "";
    const label = rawId || `at line ${line}`;
    const id = experienceIdSchema.safeParse(rawId);
    if (!id.success) {
      problems.push({
        entry: label,
        field: "id",
        line,
        problem: `heading must be "## G<n>": ${id.error.issues[0]!.message}`,
      });
      return;
    }
    const previous = seen.get(id.data);
    if (previous !== undefined) {
      problems.push({ entry: label, field: "id", line, problem: `duplicates the entry at line ${previous}` });
      return;
    }
    seen.set(id.data, line);

    const metadataBlocks = blocks.filter(
      (b) => b.info === entryFenceInfo && b.start > headingIndex && b.start < end,
    );
    if (metadataBlocks.length > 1) {
      problems.push({
        entry: label,
        field: "metadata",
        line: metadataBlocks[1]!.start + 1,
        problem: `more than one ${entryFenceInfo} block`,
      });
      return;
    }
    const metadataBlock = metadataBlocks[0];
    if (metadataBlock) {
      const after = lines.slice(metadataBlock.end + 1, end).findIndex((l) => l.trim() !== "");
      if (after >= 0) {
        problems.push({
          entry: label,
          field: "text",
          line: metadataBlock.end + 2 + after,
          problem: "text after the metadata block (put the entry's text between its heading and the block)",
        });
        return;
      }
    }
    const body = trimBlankLines(lines.slice(headingIndex + 1, metadataBlock ? metadataBlock.start : end));

    let metadata: z.infer<typeof entryMetadataSchema> = {};
    if (metadataBlock) {
      const json = safeParseJson(metadataBlock.content);
      if (!json.success) {
        problems.push({
          entry: label,
          field: "metadata",
          line: metadataBlock.start + 1,
          problem: json.error,
        });
        return;
      }
      const parsed = entryMetadataSchema.safeParse(json.value);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const keys = issue.code === "unrecognized_keys" ? `: ${issue.keys.join(", ")}` : "";
          problems.push({
            entry: label,
            field: formatPath(issue.path) || "metadata",
            line: metadataBlock.start + 1,
            problem: issue.message + keys,
          });
        }
        return;
      }
      metadata = parsed.data;
    }
    const { text: metadataText, ...fields } = metadata;
    const entryText = metadataText ?? body;
    if (entryText === "") {
      problems.push({ entry: label, field: "text", line, problem: "is empty" });
      return;
    }
    entries.push({ id: id.data, text: entryText, fields: fields as Partial<Experience> });
  });
  if (problems.length > 0) throw libraryFileError(file, problems);
  return { format: "markdown", domain, entries };
}

function trimBlankLines(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === "") start++;
  while (end > start && lines[end - 1]!.trim() === "") end--;
  return lines.slice(start, end).join("\n");
}
