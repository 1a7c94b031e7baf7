import type { CodeInterpreter } from "../code-interpreter/code-interpreter.js";
import type { CodeResult } from "../code-interpreter/code-result.js";
import type { CodeSession } from "../code-interpreter/python-session.js";

/**
 * A CodeInterpreter that runs no code: `answer` decides each result. For unit tests of callers (actor, runner)
 * that need the interface, not a sandbox; integration tests should use the real createCodeInterpreter.
 */
export function createScriptedCodeInterpreter(
  answer: (code: string, cell: number) => Partial<CodeResult> | Promise<Partial<CodeResult>>,
): CodeInterpreter & { readonly calls: string[] } {
  const calls: string[] = [];
  const run = async (code: string): Promise<CodeResult> => {
    calls.push(code);
    const partial = await answer(code, calls.length);
    return {
      stdout: "",
      stderr: "",
      exitCode: 0,
      signal: null,
      killed: false,
      durationMs: 0,
      truncated: { stdout: false, stderr: false },
      sandbox: "none",
      ...partial,
    };
  };
  const session = (): CodeSession => ({ sandbox: "none", run, close: async () => {} });
  return {
    calls,
    run,
    session,
    sandbox: async () => "none",
    warm: async () => {},
    poolStats: () => undefined,
    close: async () => {},
  };
}
