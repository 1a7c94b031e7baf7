import { readFile } from "node:fs/promises";
import path from "node:path";
import { TfgrpoError } from "./errors.js";
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
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new TfgrpoError("invalid_dataset", `${file}: cannot read dataset: ${(error as Error).message}`, {
      cause: error,
      details: { file },
    });
  }
  return parseDataset(decodeUtf8(bytes, file), { ...options, file });
}

export function parseDataset(text: string, options: LoadDatasetOptions & { file: string }): Task[] {
  const { file, domain } = options;
  const problems: DatasetProblem[] = [];
  const tasks: Task[] = [];
  const seen = new Map<string, number>();
  const base = path.basename(file).replace(/\.jsonl?$/, "");
  const maxLineBytes =
    options.maxLineBytes ?? limitFromEnvironment("TFGRPO_DATASET_MAX_LINE_BYTES", defaultMaxLineBytes);
  const maxFieldChars =
    options.maxFieldChars ?? limitFromEnvironment("TFGRPO_DATASET_MAX_FIELD_CHARS", defaultMaxFieldChars);
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    const size = Buffer.byteLength(raw, "utf8");
    if (size > maxLineBytes) {
      problems.push({
        file,
        line,
        field: "(line)",
        problem: `${size} bytes, over the limit of ${maxLineBytes} (TFGRPO_DATASET_MAX_LINE_BYTES)`,
      });
      return;
    }
    const json = safeParseJson(raw);
    if (!json.success) {
      problems.push({ file, line, field: "(line)", problem: json.error });
      return;
    }
    if (typeof json.value !== "object" || json.value === null || Array.isArray(json.value)) {
      problems.push({ file, line, field: "(line)", problem: "expected a JSON object" });
      return;
    }
    const parsed = datasetLineSchema.safeParse(json.value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push({ file, line, field: issue.path.join(".") || "(line)", problem: issue.message });
      }
      return;
    }
    const { id, domain: lineDomain, question, answer, meta, ...extra } = parsed.data;
    if (lineDomain !== undefined && lineDomain !== domain) {
      problems.push({
        file,
        line,
        field: "domain",
        problem: `is "${lineDomain}" but the dataset is loaded as "${domain}"`,
      });
      return;
    }
    const answerText = answer === null || answer === undefined ? undefined : String(answer).trim();
    const oversized = (
      [
        ["question", question],
        ["answer", answerText ?? ""],
      ] as const
    ).find(([, value]) => value.length > maxFieldChars);
    if (oversized) {
      problems.push({
        file,
        line,
        field: oversized[0],
        problem: `${oversized[1].length} characters, over the limit of ${maxFieldChars} (TFGRPO_DATASET_MAX_FIELD_CHARS)`,
      });
      return;
    }
    if (options.requireAnswer && (answerText === undefined || answerText === "")) {
      problems.push({ file, line, field: "answer", problem: "is required (ground truth) here" });
      return;
    }
    const taskId = id === undefined ? `${base}-${line}` : String(id);
    const previous = seen.get(taskId);
    if (previous !== undefined) {
      problems.push({
        file,
        line,
        field: "id",
        problem: `duplicate id "${taskId}" (first on line ${previous})`,
      });
      return;
    }
    seen.set(taskId, line);
    const allMeta = { ...(meta ?? {}), ...extra };
    tasks.push({
      id: taskId,
      domain,
      question,
      ...(answerText !== undefined && answerText !== "" ? { answer: answerText } : {}),
      ...(Object.keys(allMeta).length > 0 ? { meta: allMeta } : {}),
    });
  });
  if (problems.length > 0) {
    const shown = problems.slice(0, 50).map((p) => `${p.file}:${p.line}: ${p.field}: ${p.problem}`);
    const more = problems.length > 50 ? `\n... and ${problems.length - 50} more` : "";
    throw new TfgrpoError(
      "invalid_dataset",
      `${file}: ${problems.length} bad line(s), nothing loaded:\n${shown.join("\n")}${more}`,
      { details: { file, problems } },
    );
  }
  if (tasks.length === 0) {
    throw new TfgrpoError("invalid_dataset", `${file}: no tasks in the file`, {
      details: { file, problems: [] },
    });
  }
  return tasks;
}

export { formatZodIssues };
