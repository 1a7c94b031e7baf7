// A team's math agent on the Vercel AI SDK (ai@6): a ToolLoopAgent with the team's OWN Python tool (`run_snippet`),
// its model wrapped with tfgrpo's experienceMiddleware.
//
//   tfgrpo eval  --sim --agent test-data/independent/agents/math-python-agent-ai-sdk.mjs --domain math --data test.jsonl --library none --k 4
//   tfgrpo learn --sim --agent test-data/independent/agents/math-python-agent-ai-sdk.mjs --domain math --train train.jsonl --val val.jsonl
//   node math-python-agent-ai-sdk.mjs "What is the remainder when 2^20 is divided by 7?"
//
// The model is the team's: OPENAI_BASE_URL / OPENAI_API_KEY / AGENT_MODEL. Under `--sim` tfgrpo sets SIM_PORT and the
// model is the SIMULATED server. The Python tool is NOT sandboxed: it runs `python3` as the current user, with a
// 10 s wall-clock limit and a cap on the output it returns.
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { experienceMiddleware } from "@tfgrpo/ai-sdk";
import { stepCountIs, ToolLoopAgent, tool, wrapLanguageModel } from "ai";
import { z } from "zod";

const TIMEOUT_MS = 10_000;
const MAX_CHARS = 8_000;

/** python3 reads the program on stdin; resolves with the printed text (stdout, then stderr). Never rejects. */
function executePython(source, abortSignal) {
  return new Promise((resolve) => {
    const out = { stdout: "", stderr: "" };
    let killedForTime = false;
    let proc;
    try {
      proc = spawn("python3", ["-I", "-"], { stdio: ["pipe", "pipe", "pipe"], signal: abortSignal });
    } catch (error) {
      resolve(`Error: python3 could not be started (${error?.message ?? error})`);
      return;
    }
    const timer = setTimeout(() => {
      killedForTime = true;
      proc.kill("SIGKILL");
    }, TIMEOUT_MS);
    for (const stream of ["stdout", "stderr"]) {
      proc[stream].setEncoding("utf8").on("data", (chunk) => {
        if (out[stream].length < MAX_CHARS) out[stream] += chunk;
      });
    }
    proc.on("error", (error) => {
      clearTimeout(timer);
      resolve(`Error: python3 failed (${error.message})`);
    });
    proc.on("close", (code, sig) => {
      clearTimeout(timer);
      let text = "";
      if (killedForTime) text += `[killed: the program ran longer than ${TIMEOUT_MS / 1000} s]\n`;
      else if (code !== 0) text += `[exit status ${code ?? sig}]\n`;
      text += `--- stdout ---\n${out.stdout.slice(0, MAX_CHARS) || "(empty)"}\n`;
      if (out.stderr) text += `--- stderr ---\n${out.stderr.slice(0, MAX_CHARS)}\n`;
      resolve(text);
    });
    proc.stdin.on("error", () => {});
    proc.stdin.end(String(source));
  });
}

const provider = createOpenAICompatible({
  name: "team",
  baseURL: process.env.OPENAI_BASE_URL ?? `http://127.0.0.1:${process.env.SIM_PORT ?? 8787}/v1`,
  apiKey: process.env.OPENAI_API_KEY ?? "sim",
});

/** Served for real (not under tfgrpo learn/eval), the library the middleware reads and reports to. */
async function libraryFromEnv() {
  if (!process.env.TFGRPO_DB) return undefined;
  const [{ createLibraryService }, { createStore }] = await Promise.all([
    import("@tfgrpo/serving"),
    import("@tfgrpo/store"),
  ]);
  return createLibraryService({ store: await createStore(process.env.TFGRPO_DB) });
}

export const experience = experienceMiddleware({
  library: await libraryFromEnv(),
  domain: "math",
  reward: (run) => /\\boxed\{[^}]+\}/.test(run.text ?? ""),
});

export const agent = new ToolLoopAgent({
  model: wrapLanguageModel({
    model: provider.chatModel(process.env.AGENT_MODEL ?? "sim-actor"),
    middleware: experience,
  }),
  instructions:
    "Solve the math question you are given. You may call run_snippet to execute a Python program and see what it " +
    "prints; use it to verify calculations rather than guessing. Give exact answers unless told to round. Finish " +
    "with the final answer alone in \\boxed{...}.",
  tools: {
    run_snippet: tool({
      description: "Runs a Python 3 program and returns what it prints (stdout and stderr).",
      inputSchema: z.object({
        source: z
          .string()
          .describe("A complete Python 3 program; print() every value you want to read back."),
      }),
      execute: async ({ source }, { abortSignal }) => executePython(source, abortSignal),
    }),
  },
  stopWhen: stepCountIs(8),
  onFinish: experience.onFinish,
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await experience.run(() =>
    agent.generate({ prompt: process.argv[2] ?? "What is 17 * 23?" }),
  );
  console.log(result.text);
}
