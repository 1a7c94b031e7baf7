import { z } from "zod";
import type { CodeInterpreter } from "../code-interpreter/code-interpreter.js";
import type { CodeResult } from "../code-interpreter/code-result.js";
import type { CodeSession } from "../code-interpreter/python-session.js";
import { createModelTool, type ModelTool } from "./model-facing-tool.js";

export const codeInterpreterInputSchema = z.object({
  code: z
    .string()
    .min(1)
    .describe(
      "Python 3 code to run. Print what you need to see; the value of a final expression is printed too.",
    ),
});

const sessionDescription =
  "Run Python 3 code in a sandbox and get its output as JSON (stdout, stderr, exitCode, killed). " +
  "Variables and imports persist between calls, like notebook cells. sympy, numpy and mpmath are installed; " +
  "there is no network and no access to files outside the working directory.";
const oneShotDescription =
  "Run Python 3 code in a fresh sandbox and get its output as JSON (stdout, stderr, exitCode, killed). " +
  "Nothing persists between calls. sympy, numpy and mpmath are installed; there is no network.";

/** The JSON the model reads: outcome fields only (timings vary between runs and would make prompts unstable). */
export function codeResultForModel(result: CodeResult): string {
  return JSON.stringify({
    stdout: result.stdout,
    stderr: result.stderr,
    exitCode: result.exitCode,
    killed: result.killed,
    ...(result.killedReason ? { killedReason: result.killedReason } : {}),
    ...(result.signal ? { signal: result.signal } : {}),
    ...(result.truncated.stdout || result.truncated.stderr ? { truncated: result.truncated } : {}),
    ...(result.stateLost ? { stateLost: true } : {}),
    ...(result.notice ? { notice: result.notice } : {}),
  });
}

function isInterpreter(target: CodeSession | CodeInterpreter): target is CodeInterpreter {
  return typeof (target as CodeInterpreter).session === "function";
}

/**
 * `code_interpreter` for a model. Given a session, cells share state for the rollout; given an interpreter, every
 * call runs in a fresh sandbox.
 */
export function createCodeInterpreterTool(
  target: CodeSession | CodeInterpreter,
  options: { description?: string } = {},
): ModelTool<typeof codeInterpreterInputSchema> {
  const stateful = !isInterpreter(target);
  return createModelTool({
    name: "code_interpreter",
    description: options.description ?? (stateful ? sessionDescription : oneShotDescription),
    schema: codeInterpreterInputSchema,
    async run({ code }, { signal }) {
      return codeResultForModel(await target.run(code, signal ? { signal } : {}));
    },
  });
}
