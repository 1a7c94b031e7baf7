import path from "node:path";
import { readUserFile, requireReadableFile, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { parse as parseCsv } from "csv-parse/sync";
import { parquetMetadata, parquetReadObjects, parquetSchema } from "hyparquet";

export type RecordFormat = "jsonl" | "csv" | "parquet";

/** One source record and where it is: a 1-based line (JSONL, CSV) or row (Parquet), for `file:line:` messages. */
export interface SourceRecord {
  line: number;
  value: Record<string, unknown>;
}

export interface DatasetProblem {
  file: string;
  line: number;
  field: string;
  problem: string;
}

/** A dataset refused whole: every problem found, as `file:line: field: problem`, and nothing imported. */
export function refuse(problems: readonly DatasetProblem[]): TfgrpoError {
  const shown = problems.slice(0, 20).map((p) => `${p.file}:${p.line}: ${p.field}: ${p.problem}`);
  const more = problems.length > shown.length ? `\n... and ${problems.length - shown.length} more` : "";
  return new TfgrpoError(
    "invalid_dataset",
    `${problems.length === 1 ? "1 problem" : `${problems.length} problems`}; nothing was imported:\n${shown.join("\n")}${more}`,
    { details: { problems: problems.slice(0, 100) } },
  );
}

export function formatOf(file: string, format?: string): RecordFormat {
  const chosen = format ?? path.extname(file).slice(1).toLowerCase();
  if (chosen === "jsonl" || chosen === "json" || chosen === "ndjson") return "jsonl";
  if (chosen === "csv") return "csv";
  if (chosen === "parquet") return "parquet";
  throw new TfgrpoError(
    "invalid_input",
    `${file}: unknown format "${chosen}" (use --format jsonl, csv or parquet)`,
    {
      details: { file, field: "format" },
    },
  );
}

/**
 * Every record of a JSONL, CSV (header row) or Parquet file, read whole before anything is used: a line that does
 * not parse, a ragged CSV row, or a Parquet file without a needed column refuses the file.
 */
export async function readRecords(
  file: string,
  options: { format?: string; requiredColumns?: readonly string[] } = {},
): Promise<SourceRecord[]> {
  const what = { what: "source records", code: "invalid_dataset" } as const;
  // Before the format: a directory is said as one, not as a file of no known format.
  requireReadableFile(file, what);
  const format = formatOf(file, options.format);
  const bytes = await readUserFile(file, what);
  if (format === "jsonl") return readJsonl(file, bytes.toString("utf8"));
  if (format === "csv") return readCsvRecords(file, bytes.toString("utf8"));
  return readParquet(file, bytes, options.requiredColumns ?? []);
}

function readJsonl(file: string, text: string): SourceRecord[] {
  const records: SourceRecord[] = [];
  const problems: DatasetProblem[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    const parsed = safeParseJson<unknown>(line);
    if (!parsed.success) problems.push({ file, line: index + 1, field: "(line)", problem: parsed.error });
    else if (typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value))
      problems.push({ file, line: index + 1, field: "(line)", problem: "not a JSON object" });
    else records.push({ line: index + 1, value: parsed.value as Record<string, unknown> });
  });
  if (problems.length > 0) throw refuse(problems);
  return records;
}

function readCsvRecords(file: string, text: string): SourceRecord[] {
  let rows: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    rows = parseCsv(text, { columns: true, skip_empty_lines: true, bom: true, info: true }) as typeof rows;
  } catch (error) {
    const failure = error as Error & { lines?: number; code?: string };
    const problem = /Invalid Record Length/.test(failure.message)
      ? `ragged row: ${failure.message.replace(/^Invalid Record Length: /, "")}`
      : failure.message;
    throw refuse([{ file, line: failure.lines ?? 0, field: "(row)", problem }]);
  }
  return rows.map((row) => ({ line: row.info.lines, value: row.record }));
}

async function readParquet(
  file: string,
  bytes: Buffer,
  required: readonly string[],
): Promise<SourceRecord[]> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let columns: string[];
  try {
    const metadata = parquetMetadata(buffer);
    columns = parquetSchema(metadata).children.map((child) => child.element.name);
  } catch (error) {
    throw refuse([
      { file, line: 0, field: "(file)", problem: `not a readable Parquet file: ${(error as Error).message}` },
    ]);
  }
  const missing = required.filter((column) => !columns.includes(column));
  if (missing.length > 0) {
    throw refuse(
      missing.map((column) => ({
        file,
        // No row of the file has it: the first is named.
        line: 1,
        field: column,
        problem: `missing column (the file has: ${columns.join(", ")})`,
      })),
    );
  }
  const rows = (await parquetReadObjects({ file: buffer })) as Array<Record<string, unknown>>;
  return rows.map((value, index) => ({ line: index + 1, value }));
}
