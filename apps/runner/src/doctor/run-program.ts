import { execFile } from "node:child_process";

export interface ProgramResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** The spawn error or the exit code, when it failed. */
  failure?: string;
}

/** Runs a program to completion (a version query, a probe) within `timeoutMs`, never throwing. */
export function runProgram(
  file: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<ProgramResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { env: options.env ?? process.env, timeout: options.timeoutMs ?? 10_000, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout, stderr });
        const code = (error as NodeJS.ErrnoException & { code?: unknown }).code;
        const failure =
          typeof code === "number" ? `exit ${code}` : (error.message.split("\n")[0] ?? "failed");
        resolve({ ok: false, stdout, stderr, failure });
      },
    );
  });
}
