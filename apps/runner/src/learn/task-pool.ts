import { closeSync, openSync, readSync } from "node:fs";
import {
  type DatasetProblem,
  datasetLineContext,
  datasetProblemsError,
  type LoadDatasetOptions,
  parseDatasetLine,
  requireReadableFile,
  type Task,
  TfgrpoError,
} from "@tfgrpo/protocol";
import { defaultStratifyField, stratifyFieldOf, taskField } from "./stratified-order.js";

/**
 * The training tasks of a run, held by reference: their ids, where each line is in the file and the value of the
 * field batches are stratified by. A task's text is read back when a step needs it (a few recent ones are kept), so
 * the runner's memory grows with the batch, not with the pool. Iterating reads the whole file again, line by line.
 */
export interface TaskPool extends Iterable<Task> {
  readonly size: number;
  /** Every id, in file order. */
  readonly ids: readonly string[];
  /** The field the pool was stratified by (null: none, a plain shuffle). */
  readonly stratifyField: string | null;
  /** The stratum of the task at `index` of `ids` (undefined: the task has no such field). */
  stratumOf(index: number): string | undefined;
  has(id: string): boolean;
  /** The task, read from its file when it is not among the recent ones; an error names an id the pool lacks. */
  get(id: string): Task;
}

/** Tasks a step touches are asked for several times (rollout, reward, advantage): this many stay decoded. */
const recentTasks = 512;

class Strata {
  private readonly names: string[] = [];
  private readonly indexOf = new Map<string, number>();
  private readonly values: number[] = [];

  add(value: string | undefined): void {
    if (value === undefined) {
      this.values.push(-1);
      return;
    }
    let index = this.indexOf.get(value);
    if (index === undefined) {
      index = this.names.length;
      this.names.push(value);
      this.indexOf.set(value, index);
    }
    this.values.push(index);
  }

  get carried(): boolean {
    return this.names.length > 0;
  }

  at(index: number): string | undefined {
    const value = this.values[index];
    return value === undefined || value < 0 ? undefined : this.names[value];
  }
}

/** A pool over tasks already in memory (tests, small sets): the same interface, nothing read back. */
export function taskPoolOf(tasks: readonly Task[], requestedField?: string): TaskPool {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const field = fieldFor(requestedField);
  const strata = new Strata();
  for (const task of tasks) strata.add(field === null ? undefined : taskField(task, field));
  const stratifyField = resolveField(requestedField, field, strata.carried);
  return {
    size: tasks.length,
    ids: tasks.map((task) => task.id),
    stratifyField,
    stratumOf: (index) => (stratifyField === null ? undefined : strata.at(index)),
    has: (id) => byId.has(id),
    get: (id) => byId.get(id) ?? missing(id, "the training tasks"),
    [Symbol.iterator]: () => tasks[Symbol.iterator](),
  };
}

/**
 * Opens a JSONL training file as a pool: one pass checks every line as `loadDataset` does (the same problems, the
 * same ids; a file with any bad line is refused whole) and keeps only each task's id, place and stratum.
 */
export function openTaskPool(
  file: string,
  options: LoadDatasetOptions & { stratifyBy?: string | undefined },
): TaskPool {
  const context = datasetLineContext({ ...options, file });
  const field = fieldFor(options.stratifyBy);
  const ids: string[] = [];
  const starts: number[] = [];
  const lines: number[] = [];
  const lengths: number[] = [];
  const strata = new Strata();
  const problems: DatasetProblem[] = [];
  for (const { text, line, start, length } of fileLines(file)) {
    const result = parseDatasetLine(text, line, context);
    if (result === null) continue;
    if ("problems" in result) {
      problems.push(...result.problems);
      continue;
    }
    ids.push(result.task.id);
    starts.push(start);
    lines.push(line);
    lengths.push(length);
    strata.add(field === null ? undefined : taskField(result.task, field));
  }
  if (problems.length > 0 || ids.length === 0) throw datasetProblemsError(file, problems);
  // The ids were checked once, above: a line read back is the line checked, so it parses the same way.
  const { seen: _checked, ...lineContext } = context;
  const lineOf = (index: number) => lines[index]!;
  const stratifyField = resolveField(options.stratifyBy, field, strata.carried);
  const recent = new Map<string, Task>();
  const read = (index: number): Task => {
    const bytes = Buffer.alloc(lengths[index]!);
    const descriptor = openSync(file, "r");
    try {
      readSync(descriptor, bytes, 0, bytes.length, starts[index]!);
    } finally {
      closeSync(descriptor);
    }
    const result = parseDatasetLine(bytes.toString("utf8"), lineOf(index), {
      ...lineContext,
      seen: new Map(),
    });
    if (result === null || !("task" in result) || result.task.id !== ids[index])
      throw new TfgrpoError(
        "conflict",
        `${file}:${lineOf(index)}: the file changed while the run read it (task ${ids[index]} is no longer there)`,
        { details: { file, line: lineOf(index) } },
      );
    return result.task;
  };
  const positionOf = new Map<string, number>();
  for (const [index, id] of ids.entries()) positionOf.set(id, index);
  return {
    size: ids.length,
    ids,
    stratifyField,
    stratumOf: (index) => (stratifyField === null ? undefined : strata.at(index)),
    has: (id) => positionOf.has(id),
    get(id) {
      const cached = recent.get(id);
      if (cached) {
        recent.delete(id);
        recent.set(id, cached);
        return cached;
      }
      const index = positionOf.get(id);
      if (index === undefined) return missing(id, file);
      const task = read(index);
      recent.set(id, task);
      if (recent.size > recentTasks) recent.delete(recent.keys().next().value!);
      return task;
    },
    // One pass over the file (the lines were checked when it was opened), not a read per task.
    *[Symbol.iterator]() {
      for (const { text, line } of fileLines(file)) {
        const result = parseDatasetLine(text, line, { ...lineContext, seen: new Map() });
        if (result !== null && "task" in result) yield result.task;
      }
    },
  };
}

/** The field whose values are kept while the tasks are read ("none": no field). */
function fieldFor(requested: string | undefined): string | null {
  return requested === "none" ? null : (requested ?? defaultStratifyField);
}

function resolveField(requested: string | undefined, field: string | null, carried: boolean): string | null {
  return field === null ? null : stratifyFieldOf(requested, () => carried);
}

function missing(id: string, where: string): never {
  throw new TfgrpoError("not_found", `task ${id} is not in ${where}`, { details: { taskId: id } });
}

/** How much of the file is read at once while it is scanned. */
const chunkBytes = 1 << 20;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The lines of a file with their byte offsets, read a chunk at a time: a line that is not valid UTF-8 is an error
 * naming it (as `loadDataset` does), a byte-order mark at the start is skipped.
 */
function* fileLines(file: string): Generator<{ text: string; line: number; start: number; length: number }> {
  // A directory opens on Linux and fails only at the first read (EISDIR): refused here, naming the path.
  requireReadableFile(file, { what: "dataset", code: "invalid_dataset" });
  let descriptor: number;
  try {
    descriptor = openSync(file, "r");
  } catch (error) {
    throw new TfgrpoError("invalid_dataset", `${file}: cannot read dataset: ${(error as Error).message}`, {
      cause: error,
      details: { file },
    });
  }
  try {
    let carry = Buffer.alloc(0);
    let carryStart = 0;
    let position = 0;
    let line = 0;
    const chunk = Buffer.alloc(chunkBytes);
    const decode = (bytes: Buffer, lineNumber: number): string => {
      try {
        return strictUtf8.decode(bytes);
      } catch {
        throw new TfgrpoError(
          "invalid_dataset",
          `${file}:${lineNumber}: not valid UTF-8 (save the file as UTF-8; nothing loaded)`,
          {
            details: {
              file,
              problems: [{ file, line: lineNumber, field: "(line)", problem: "not valid UTF-8" }],
            },
          },
        );
      }
    };
    for (;;) {
      const read = readSync(descriptor, chunk, 0, chunkBytes, position);
      const bytes = read === 0 ? carry : Buffer.concat([carry, chunk.subarray(0, read)]);
      let from = 0;
      for (;;) {
        const newline = bytes.indexOf(0x0a, from);
        if (newline === -1) break;
        line++;
        yield lineAt(bytes, from, newline, carryStart + from, line);
        from = newline + 1;
      }
      if (read === 0) {
        if (from < bytes.length) {
          line++;
          yield lineAt(bytes, from, bytes.length, carryStart + from, line);
        }
        return;
      }
      carry = Buffer.from(bytes.subarray(from));
      carryStart += from;
      position += read;
    }
    function lineAt(bytes: Buffer, from: number, to: number, start: number, lineNumber: number) {
      let end = to;
      if (end > from && bytes[end - 1] === 0x0d) end--;
      let begin = from;
      // A byte-order mark opens the file, not the first task.
      if (start === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) begin += 3;
      return {
        text: decode(bytes.subarray(begin, end), lineNumber),
        line: lineNumber,
        start: start + (begin - from),
        length: end - begin,
      };
    }
  } finally {
    closeSync(descriptor);
  }
}
