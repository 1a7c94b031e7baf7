import { createHash } from "node:crypto";
import path from "node:path";
import { extractBoxedAnswer } from "@tfgrpo/actor";
import { seededRandom, type Task, TfgrpoError } from "@tfgrpo/protocol";
import { checkPresetName } from "./check-preset-name.js";
import { type DatasetPreset, datasetPresets } from "./dataset-presets.js";
import { type DatasetProblem, readRecords, refuse, type SourceRecord } from "./read-records.js";

export interface ImportDatasetOptions {
  /** Source files pooled together (JSONL, CSV or Parquet). */
  files: string[];
  /** A held-out file kept as the validation split (nothing of it may also be in training). */
  valFile?: string;
  format?: string;
  preset?: string;
  /** `question=problem,answer=solution`: task field = source field (dotted paths, `a|b` alternatives). */
  map?: string;
  domain?: string;
  /** Source fields for meta.family and meta.time (override the preset's). */
  family?: string;
  time?: string;
  /** Share of the pool held out for validation, split by family or time (or, discouraged, at random). */
  split?: { val: number; by: "family" | "time" | "random" };
  seed?: number;
  /** Answers that are worked solutions: take their last \boxed{} (auto: when an answer has one). */
  extractBoxed?: "auto" | "always" | "never";
  /** Refuse records without an answer (default true). */
  requireAnswer?: boolean;
}

export interface ImportedDataset {
  train: Task[];
  val: Task[];
  /** Records dropped because their question was already imported (within the pool or present in validation). */
  duplicates: number;
  /** Answers taken from a \boxed{} in a worked solution. */
  extracted: number;
  notes: string[];
}

const mapFields = ["question", "answer", "id"] as const;

/** Parses `question=problem,answer=solution`: every key must be a task field, every value a source path. */
export function parseFieldMap(spec: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const part of spec
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)) {
    const [key, value] = part.split("=").map((item) => item.trim());
    if (!key || !value || !(mapFields as readonly string[]).includes(key)) {
      throw new TfgrpoError(
        "invalid_input",
        `--map ${spec}: "${part}" must be FIELD=SOURCE with FIELD one of ${mapFields.join(", ")}`,
        { details: { field: "map" } },
      );
    }
    map[key] = value;
  }
  return map;
}

/** A value by dotted path (`prompt.0.content`), `a|b` alternatives (the first present), or `=literal`. */
export function pick(record: Record<string, unknown>, spec: string): unknown {
  for (const alternative of spec.split("|")) {
    if (alternative.startsWith("=")) return alternative.slice(1);
    let value: unknown = record;
    for (const key of alternative.split(".")) {
      if (value === null || value === undefined) break;
      value = Array.isArray(value) ? value[Number(key)] : (value as Record<string, unknown>)[key];
    }
    if (value !== undefined && value !== null && value !== "") return value;
  }
  return undefined;
}

const normalized = (question: string) =>
  question
    .toLowerCase()
    .replace(/[\s$]+/g, " ")
    .trim();

/**
 * Reads benchmark files into tfgrpo tasks: a preset or a field map, answers from worked solutions, duplicates
 * dropped across the pool and the held-out file, and a held-out split that keeps families or time apart
 * (seed 002 §5.3: split by type or time, not at random). Any bad record refuses the whole import.
 */
export async function importDataset(options: ImportDatasetOptions): Promise<ImportedDataset> {
  const preset = presetFor(options.preset);
  const map = {
    ...(preset?.map ?? { question: "question|problem", answer: "answer" }),
    ...parseFieldMap(options.map ?? ""),
  };
  const domain = options.domain ?? preset?.domain;
  if (!domain)
    throw new TfgrpoError("invalid_input", "data import needs --domain (or a --preset)", {
      details: { field: "domain" },
    });
  const family = options.family ?? preset?.family;
  const time = options.time ?? preset?.time;
  // Columns a Parquet file must have: the preset's, and the ones the map names without alternatives.
  const mapped = [map.question, options.requireAnswer === false ? undefined : map.answer]
    .filter(
      (source): source is string => source !== undefined && !source.includes("|") && !source.startsWith("="),
    )
    .map((source) => source.split(".")[0]!);
  const required = [...new Set([...(preset?.required ?? []), ...mapped])];
  const problems: DatasetProblem[] = [];
  let extracted = 0;

  const toTasks = async (file: string, heldOut = false): Promise<Task[]> => {
    const records = await readRecords(file, {
      ...(options.format ? { format: options.format } : {}),
      requiredColumns: required,
    });
    // Ids name the dataset (the preset), or the file: a held-out file always by its own name, so ids never collide.
    const prefix = (!heldOut && preset?.name) || path.basename(file).replace(/\.[^.]+$/, "");
    return records.flatMap((record) => {
      const task = toTask(record, file, prefix);
      return task ? [task] : [];
    });
  };

  const toTask = (record: SourceRecord, file: string, prefix: string): Task | undefined => {
    const report = (field: string, problem: string) =>
      problems.push({ file, line: record.line, field, problem });
    const rawQuestion = pick(record.value, map.question ?? "question");
    if (typeof rawQuestion !== "string" || rawQuestion.trim() === "") {
      report("question", `missing or empty (source: ${map.question})`);
      return undefined;
    }
    let question = rawQuestion;
    for (const pattern of preset?.strip ?? []) question = question.replace(pattern, "");
    question = question.trim();
    const rawAnswer = pick(record.value, map.answer ?? "answer");
    let answer: string | undefined;
    if (typeof rawAnswer === "number") answer = String(rawAnswer);
    else if (typeof rawAnswer === "string" && rawAnswer.trim() !== "") {
      const boxed = options.extractBoxed === "never" ? null : extractBoxedAnswer(rawAnswer);
      if (boxed !== null) {
        answer = boxed;
        if (boxed !== rawAnswer.trim()) extracted++;
      } else if (options.extractBoxed === "always") {
        report("answer", `no \\boxed{} answer in the solution (source: ${map.answer})`);
        return undefined;
      } else if (rawAnswer.length > 200 && options.extractBoxed !== "never") {
        report(
          "answer",
          `a worked solution with no \\boxed{} answer (source: ${map.answer}); map a short answer field`,
        );
        return undefined;
      } else answer = rawAnswer.trim();
    } else if (rawAnswer !== undefined) {
      report("answer", `not a string or number (source: ${map.answer})`);
      return undefined;
    }
    if (answer === undefined && options.requireAnswer !== false) {
      report("answer", `missing (source: ${map.answer})`);
      return undefined;
    }
    const id = pick(record.value, map.id ?? "id");
    const meta: Record<string, unknown> = { source: path.basename(file), sourceLine: record.line };
    for (const [name, source] of Object.entries(preset?.meta ?? {})) {
      const value = pick(record.value, source);
      if (value !== undefined) meta[name] = value;
    }
    if (family) meta.family = pick(record.value, family) ?? "(none)";
    if (time) {
      const value = pick(record.value, time);
      if (value === undefined) {
        report(time, "missing: a split by time needs it on every record");
        return undefined;
      }
      meta.time = value;
    }
    return {
      id: typeof id === "string" || typeof id === "number" ? `${prefix}-${id}` : `${prefix}-${record.line}`,
      domain,
      question,
      ...(answer !== undefined ? { answer } : {}),
      meta,
    };
  };

  const pool = (await Promise.all(options.files.map((file) => toTasks(file)))).flat();
  const heldOut = options.valFile ? await toTasks(options.valFile, true) : [];
  if (problems.length > 0) throw refuse(problems);

  // Duplicates: the held-out file wins, then the first occurrence in the pool.
  // Keyed by a digest of the normalized question: 20 bytes a task, not a second copy of the pool's text.
  const seen = new Set<string>();
  let duplicates = 0;
  const unique = (tasks: Task[]) =>
    tasks.filter((task) => {
      const key = createHash("sha1").update(normalized(task.question)).digest("base64");
      if (seen.has(key)) {
        duplicates++;
        return false;
      }
      seen.add(key);
      return true;
    });
  const val = unique(heldOut);
  const train = unique(pool);
  uniqueIds([...val, ...train]);

  const notes: string[] = [];
  if (!options.split) return { train, val, duplicates, extracted, notes };
  const split = splitTasks(train, options.split, options.seed ?? 1, notes);
  return { train: split.train, val: [...val, ...split.val], duplicates, extracted, notes };
}

function presetFor(name: string | undefined): DatasetPreset | undefined {
  if (name === undefined) return undefined;
  checkPresetName(name);
  const preset = datasetPresets[name];
  if (!preset) {
    throw new TfgrpoError(
      "invalid_input",
      `--preset ${name} imports a benchmark's directory: data import DIR --preset ${name} --out-dir D`,
      { details: { field: "preset" } },
    );
  }
  return preset;
}

function uniqueIds(tasks: Task[]): void {
  const counts = new Map<string, number>();
  for (const task of tasks) {
    const count = (counts.get(task.id) ?? 0) + 1;
    counts.set(task.id, count);
    if (count > 1) task.id = `${task.id}-${count}`;
  }
}

/** Held-out tasks by whole families, by the latest times, or (discouraged) at random. */
function splitTasks(
  tasks: Task[],
  split: { val: number; by: "family" | "time" | "random" },
  seed: number,
  notes: string[],
): { train: Task[]; val: Task[] } {
  const target = Math.round(tasks.length * split.val);
  if (split.by === "time") {
    if (tasks.some((task) => task.meta?.time === undefined)) {
      throw new TfgrpoError(
        "invalid_input",
        "--split-by time needs --time FIELD (or a preset that has one)",
        {
          details: { field: "time" },
        },
      );
    }
    const ordered = [...tasks].sort((a, b) =>
      String(a.meta?.time).localeCompare(String(b.meta?.time), undefined, { numeric: true }),
    );
    return { train: ordered.slice(0, ordered.length - target), val: ordered.slice(ordered.length - target) };
  }
  const random = seededRandom(seed);
  if (split.by === "random") {
    notes.push(
      "random split: near-duplicate problems may sit on both sides; prefer --split-by family or time (seed 002 §5.3)",
    );
    const shuffled = [...tasks].sort(() => random() - 0.5);
    return { train: shuffled.slice(target), val: shuffled.slice(0, target) };
  }
  if (tasks.some((task) => task.meta?.family === undefined)) {
    throw new TfgrpoError(
      "invalid_input",
      "--split-by family needs --family FIELD (or a preset that has one)",
      {
        details: { field: "family" },
      },
    );
  }
  const families = [...new Set(tasks.map((task) => String(task.meta?.family)))].sort();
  for (let index = families.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [families[index], families[other]] = [families[other]!, families[index]!];
  }
  const sizes = new Map<string, number>();
  for (const task of tasks)
    sizes.set(String(task.meta?.family), (sizes.get(String(task.meta?.family)) ?? 0) + 1);
  const held = new Set<string>();
  let count = 0;
  for (const name of families) {
    if (count >= target || held.size === families.length - 1) break;
    held.add(name);
    count += sizes.get(name) ?? 0;
  }
  notes.push(`held-out families: ${[...held].join(", ")} (${count} tasks; no family is on both sides)`);
  return {
    train: tasks.filter((task) => !held.has(String(task.meta?.family))),
    val: tasks.filter((task) => held.has(String(task.meta?.family))),
  };
}
