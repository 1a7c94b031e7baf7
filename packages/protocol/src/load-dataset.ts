import path from "node:path";
import { TfgrpoError } from "./errors.js";
import { readUserFile } from "./read-user-file.js";
import { formatZodIssues, safeParseJson } from "./safe-parse-json.js";
import { datasetLineSchema } from "./schemas/dataset-line.js";
import type { Task } from "./schemas/task.js";

export interface DatasetProblem {
  file: string;
  line: number;
  field: string;
  problem: string;
}

export interface LoadDatasetOptions {
  /** Domain of every task; a line naming another domain is an error. */
  domain: string;
  /** Refuse the file if a line has no answer (training and evaluation with ground truth). */
  requireAnswer?: boolean;
  /** Longest line accepted, in bytes (default 1 MiB, or TFGRPO_DATASET_MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /** Longest question or answer accepted, in characters (default 100,000, or TFGRPO_DATASET_MAX_FIELD_CHARS). */
  maxFieldChars?: number;
}

export const defaultMaxLineBytes = 1024 * 1024;
export const defaultMaxFieldChars = 100_000;

function limitFromEnvironment(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new TfgrpoError("invalid_config", `${name}=${raw}: expected a positive whole number`, {
      details: { field: name },
    });
  return value;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The file's text, or an error naming the first line that is not valid UTF-8: a lossy decode would hand the model
 * `Caf\uFFFD` and nobody would know.
 */
function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let start = 0;
    for (let line = 1; start <= bytes.length; line++) {
      let end = bytes.indexOf(0x0a, start);
      if (end === -1) end = bytes.length;
      try {
        strictUtf8.decode(bytes.subarray(start, end));
      } catch {
        throw new TfgrpoError(
          "invalid_dataset",
          `${file}:${line}: not valid UTF-8 (save the file as UTF-8; nothing loaded)`,
          { details: { file, problems: [{ file, line, field: "(line)", problem: "not valid UTF-8" }] } },
        );
      }
      start = end + 1;
    }
    throw new TfgrpoError("invalid_dataset", `${file}: not valid UTF-8 (nothing loaded)`, {
      details: { file },
    });
  }
}

/**
 * Reads a JSONL dataset. Every bad line is reported as `file:line: field: problem`, and a file with any bad line is
 * refused whole: the caller gets either every task or an error, never part of the file.
 */
export async function loadDataset(file: string, options: LoadDatasetOptions): Promise<Task[]> {
  const bytes = await readUserFile(file, { what: "dataset", code: "invalid_dataset" });
  return parseDataset(decodeUtf8(bytes, file), { ...options, file });
}

/** What `parseDatasetLine` needs besides the line: the file's limits and the ids seen so far (id -> line). */
export interface DatasetLineContext {
  file: string;
  domain: string;
  requireAnswer?: boolean;
  maxLineBytes: number;
  maxFieldChars: number;
  /** The file's name without `.jsonl`: ids of lines without one are `<base>-<line>`. */
  base: string;
  /** The line of every id taken so far; the new id is added. */
  seen: Map<string, number>;
}

/** The limits and naming of a dataset file, as `parseDatasetLine` reads them. */
export function datasetLineContext(options: LoadDatasetOptions & { file: string }): DatasetLineContext {
  return {
    file: options.file,
    domain: options.domain,
    ...(options.requireAnswer !== undefined ? { requireAnswer: options.requireAnswer } : {}),
    maxLineBytes:
      options.maxLineBytes ?? limitFromEnvironment("TFGRPO_DATASET_MAX_LINE_BYTES", defaultMaxLineBytes),
    maxFieldChars:
      options.maxFieldChars ?? limitFromEnvironment("TFGRPO_DATASET_MAX_FIELD_CHARS", defaultMaxFieldChars),
    base: path.basename(options.file).replace(/\.jsonl?$/, ""),
    seen: new Map(),
  };
}

/**
 * One line of a JSONL dataset (1-based `line`): the task, nothing for a blank line, or its problems. A reader that
 * streams a large file line by line gets exactly what `parseDataset` gives for the whole text.
 */
export function parseDatasetLine(
  raw: string,
  line: number,
  context: DatasetLineContext,
): { task: Task } | { problems: DatasetProblem[] } | null {
  const { file, domain, maxLineBytes, maxFieldChars, seen } = context;
  const problem = (field: string, text: string) => ({ problems: [{ file, line, field, problem: text }] });
  if (raw.trim() === "") return null;
  const size = Buffer.byteLength(raw, "utf8");
  if (size > maxLineBytes)
    return problem(
      "(line)",
      `${size} bytes, over the limit of ${maxLineBytes} (TFGRPO_DATASET_MAX_LINE_BYTES)`,
    );
  const json = safeParseJson(raw);
  if (!json.success) return problem("(line)", json.error);
  if (typeof json.value !== "object" || json.value === null || Array.isArray(json.value))
    return problem("(line)", "expected a JSON object");
  const parsed = datasetLineSchema.safeParse(json.value);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => ({
        file,
        line,
        field: issue.path.join(".") || "(line)",
        problem: issue.message,
      })),
    };
  }
  const { id, domain: lineDomain, question, answer, meta, ...extra } = parsed.data;
  if (lineDomain !== undefined && lineDomain !== domain)
    return problem("domain", `is "${lineDomain}" but the dataset is loaded as "${domain}"`);
  const answerText = answer === null || answer === undefined ? undefined : String(answer).trim();
  const oversized = (
    [
      ["question", question],
      ["answer", answerText ?? ""],
    ] as const
  ).find(([, value]) => value.length > maxFieldChars);
  if (oversized)
    return problem(
      oversized[0],
      `${oversized[1].length} characters, over the limit of ${maxFieldChars} (TFGRPO_DATASET_MAX_FIELD_CHARS)`,
    );
  if (context.requireAnswer && (answerText === undefined || answerText === ""))
    return problem("answer", "is required (ground truth) here");
  const taskId = id === undefined ? `${context.base}-${line}` : String(id);
  const previous = seen.get(taskId);
  if (previous !== undefined) return problem("id", `duplicate id "${taskId}" (first on line ${previous})`);
  seen.set(taskId, line);
  const allMeta = { ...(meta ?? {}), ...extra };
  return {
    task: {
      id: taskId,
      domain,
      question,
      ...(answerText !== undefined && answerText !== "" ? { answer: answerText } : {}),
      ...(Object.keys(allMeta).length > 0 ? { meta: allMeta } : {}),
    },
  };
}

/** A file refused for its bad lines (the first 50 shown), or with no task at all. */
export function datasetProblemsError(file: string, problems: readonly DatasetProblem[]): TfgrpoError {
  if (problems.length === 0)
    return new TfgrpoError("invalid_dataset", `${file}: no tasks in the file`, {
      details: { file, problems: [] },
    });
  const shown = problems.slice(0, 50).map((p) => `${p.file}:${p.line}: ${p.field}: ${p.problem}`);
  const more = problems.length > 50 ? `\n... and ${problems.length - 50} more` : "";
  return new TfgrpoError(
    "invalid_dataset",
    `${file}: ${problems.length} bad line(s), nothing loaded:\n${shown.join("\n")}${more}`,
    { details: { file, problems: [...problems] } },
  );
}

export function parseDataset(text: string, options: LoadDatasetOptions & { file: string }): Task[] {
  const context = datasetLineContext(options);
  const problems: DatasetProblem[] = [];
  const tasks: Task[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const result = parseDatasetLine(raw, index + 1, context);
      if (result === null) return;
      if ("task" in result) tasks.push(result.task);
      else problems.push(...result.problems);
    });
  if (problems.length > 0 || tasks.length === 0) throw datasetProblemsError(options.file, problems);
  return tasks;
}

export { formatZodIssues };
