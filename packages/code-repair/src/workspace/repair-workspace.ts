import { mkdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";
import type { CodeResult } from "@tfgrpo/tools";
import { type RepairProgram, testFilesOf } from "../program/quixbugs-program.js";
import type { CaseRun, RepairSandbox } from "../sandbox/repair-sandbox.js";

/** What `environment_state` reports: which program, and the workspace's program file as it is now. */
export interface RepairState {
  program: string;
  files: Record<string, string>;
}

/**
 * One attempt's workspace: a private temp dir holding a fresh copy of the defective program and its visible tests.
 * Reads and edits touch only this dir; every run of the program happens in the sandbox from the file's current text,
 * so nothing of another attempt, and nothing outside this dir, is ever seen or changed.
 */
export interface RepairWorkspace {
  readonly program: RepairProgram;
  /** The program file's name (`gcd.py`). */
  readonly fileName: string;
  readonly dir: string;
  /** A workspace file (default: the program), by its path inside the workspace. */
  read(file?: string): Promise<string>;
  /** Replaces the program file. */
  write(content: string): Promise<void>;
  /** Replaces the one occurrence of `oldText` in the program; refused when it occurs zero or several times. */
  edit(oldText: string, newText: string): Promise<void>;
  runTests(): Promise<CaseRun>;
  runPython(code: string): Promise<CodeResult>;
  /** Workspace files other than the program (its visible tests), by path. */
  listFiles(): string[];
  state(): Promise<RepairState>;
  close(): Promise<void>;
}

const maxFileBytes = 200_000;

export async function createRepairWorkspace(options: {
  program: RepairProgram;
  sandbox: RepairSandbox;
  /** Where the temp dir is made (default the OS temp dir). */
  parent?: string;
}): Promise<RepairWorkspace> {
  const { program, sandbox } = options;
  const dir = await mkdtemp(path.join(options.parent ?? tmpdir(), `tfgrpo-repair-${program.name}-`));
  const fileName = `${program.name}.py`;
  const visible = testFilesOf(program, "visible");
  const files: Record<string, string> = { [fileName]: program.source };
  for (const [rel, text] of Object.entries(visible)) {
    if (rel.startsWith("python_programs/")) files[path.basename(rel)] = text;
    else files[`tests/${rel.replace(/^python_testcases\//, "")}`] = text;
  }
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  let closed = false;

  const resolve = (file: string): string => {
    const normal = path.posix.normalize(file.replace(/^\.\//, ""));
    if (path.isAbsolute(normal) || normal.startsWith("..") || !(normal in files)) {
      throw new TfgrpoError(
        "invalid_input",
        `no such file in the workspace: ${file} (files: ${Object.keys(files).join(", ")})`,
      );
    }
    return path.join(dir, normal);
  };
  const current = () => {
    if (closed) throw new TfgrpoError("invalid_input", "the workspace is closed");
    return readFile(path.join(dir, fileName), "utf8");
  };
  const checkSize = (text: string) => {
    if (Buffer.byteLength(text) > maxFileBytes) {
      throw new TfgrpoError("invalid_input", `the file would be larger than ${maxFileBytes} bytes`);
    }
  };

  return {
    program,
    fileName,
    dir,
    async read(file = fileName) {
      if (closed) throw new TfgrpoError("invalid_input", "the workspace is closed");
      return readFile(resolve(file), "utf8");
    },
    async write(content) {
      checkSize(content);
      await current();
      await writeFile(path.join(dir, fileName), content);
    },
    async edit(oldText, newText) {
      const text = await current();
      if (oldText === "") throw new TfgrpoError("invalid_input", "old_text is empty");
      const count = text.split(oldText).length - 1;
      if (count !== 1) {
        throw new TfgrpoError(
          "invalid_input",
          count === 0
            ? `old_text does not occur in ${fileName} (copy it exactly, spaces included)`
            : `old_text occurs ${count} times in ${fileName}: include more of the surrounding lines`,
        );
      }
      const next = text.replace(oldText, () => newText);
      checkSize(next);
      await writeFile(path.join(dir, fileName), next);
    },
    async runTests() {
      return sandbox.runCases(program, await current(), "visible");
    },
    async runPython(code) {
      return sandbox.runSnippet(program, await current(), code);
    },
    listFiles: () => Object.keys(files).filter((file) => file !== fileName),
    async state() {
      return { program: program.name, files: { [fileName]: await current() } };
    },
    async close() {
      if (closed) return;
      closed = true;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
