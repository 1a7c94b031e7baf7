import type { CommandOutput } from "../cli-options/command-output.js";

/** A command's output kept in memory: pass `output` to the command, read what it wrote from `written`. */
export function captureCommandOutput(): {
  output: CommandOutput;
  written: { stdout: string; stderr: string };
} {
  const written = { stdout: "", stderr: "" };
  const stream = (name: "stdout" | "stderr") => ({
    write: (text: string) => {
      written[name] += text;
      return true;
    },
  });
  return { output: { stdout: stream("stdout"), stderr: stream("stderr") }, written };
}
