// A team's math agent: LangChain createAgent + ChatOpenAI, with the team's OWN Python tool (`py_exec`), and
// tfgrpo's experienceMiddleware listed first.
//
//   tfgrpo eval  --sim --agent test-data/independent/agents/math-python-agent.mjs --domain math --data test.jsonl --library none --k 4
//   tfgrpo learn --sim --agent test-data/independent/agents/math-python-agent.mjs --domain math --train train.jsonl --val val.jsonl
//   node math-python-agent.mjs "How many ways are there to choose 2 of 5 books?"
//
// The model is the team's: OPENAI_BASE_URL / OPENAI_API_KEY / AGENT_MODEL. Under `--sim` tfgrpo sets SIM_PORT and the
// model is the SIMULATED server. The Python tool is NOT sandboxed: it runs `python3` as the current user, with a
// 10 s wall-clock limit and a cap on the output it returns. Use it only with models and tasks you trust.
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { ChatOpenAI } from "@langchain/openai";
import { experienceMiddleware } from "@tfgrpo/langgraph";
import { createAgent, tool } from "langchain";
import { z } from "zod";

const TIMEOUT_MS = 10_000;
const MAX_CHARS = 8_000;

/** Run a Python program with python3 and resolve with what it printed (stdout and stderr), as text. Never rejects. */
export function runPythonProgram(program, { timeoutMs = TIMEOUT_MS, signal } = {}) {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let child;
    try {
      child = spawn("python3", ["-I", "-"], { stdio: ["pipe", "pipe", "pipe"], signal });
    } catch (error) {
      resolve(`Error: could not start python3: ${error?.message ?? error}`);
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    const cap = (text, chunk) => (text.length < MAX_CHARS ? text + chunk : text);
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout = cap(stdout, chunk);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr = cap(stderr, chunk);
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve(`Error: python3 failed: ${error.message}`);
    });
    child.on("close", (code, sig) => {
      clearTimeout(timer);
      const parts = [];
      if (timedOut) parts.push(`(stopped after ${timeoutMs / 1000} s: time limit)`);
      else if (code !== 0) parts.push(`(exit status ${code ?? sig})`);
      parts.push(`stdout:\n${stdout.slice(0, MAX_CHARS) || "(nothing printed)"}`);
      if (stderr) parts.push(`stderr:\n${stderr.slice(0, MAX_CHARS)}`);
      resolve(parts.join("\n"));
    });
    child.stdin.on("error", () => {}); // a program that exits before reading its stdin
    child.stdin.end(String(program));
  });
}

const pyExec = tool(async ({ program }, config) => runPythonProgram(program, { signal: config?.signal }), {
  name: "py_exec",
  description: "Runs a Python 3 program and returns what it prints (stdout and stderr).",
  schema: z.object({
    program: z.string().describe("The full Python 3 source to run; print() whatever you want to see."),
  }),
});

const baseURL = process.env.OPENAI_BASE_URL ?? `http://127.0.0.1:${process.env.SIM_PORT ?? 8787}/v1`;
const model = new ChatOpenAI({
  model: process.env.AGENT_MODEL ?? "sim-actor",
  apiKey: process.env.OPENAI_API_KEY ?? "sim",
  configuration: { baseURL },
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
  // Served for real, a run that ends with a boxed answer counts as a success (a real team would check the answer).
  reward: (run) => /\\boxed\{[^}]+\}/.test(run.finalText ?? ""),
});

const systemPrompt = [
  "You solve short math word problems.",
  "Work it out step by step. When arithmetic or counting could go wrong, check it with the py_exec tool:",
  "write a complete Python program that prints the numbers you need, then read its output.",
  "Keep exact values exact (fractions, integers) unless the question asks for rounding.",
  "End with one line holding only the final answer inside \\boxed{...}.",
].join(" ");

export const agent = createAgent({
  model,
  tools: [pyExec],
  systemPrompt,
  middleware: [experience],
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const state = await experience.run(() =>
    agent.invoke({ messages: [{ role: "user", content: process.argv[2] ?? "What is 17 * 23?" }] }),
  );
  console.log(state.messages.at(-1)?.text);
}
