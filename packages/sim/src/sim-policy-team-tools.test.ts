import { describe, expect, it } from "vitest";
import { quietNoise } from "./behaviour.js";
import type { ChatRequest } from "./chat-request.js";
import { createSimModel } from "./sim-model.js";
import { createSuite } from "./suites/create-suite.js";

/**
 * A team's own tools, named and shaped its own way: the policy picks them by what they say they do, calls them with
 * their own argument names, and reads their results in their own shapes.
 */
type Tool = NonNullable<ChatRequest["tools"]>[number];
const tool = (
  name: string,
  description: string,
  properties: Record<string, unknown>,
  required?: string[],
) => ({
  type: "function",
  function: {
    name,
    description,
    parameters: { type: "object", properties, required: required ?? Object.keys(properties) },
  },
});

const pyExec = tool("py_exec", "Runs a Python program and returns what it prints.", {
  source: { type: "string" },
});
const explainer = tool("python_helper", "Explains what Python code does. It never executes anything.", {
  code: { type: "string" },
});
const calculator = tool("calculator", "Evaluates an arithmetic expression.", {
  expression: { type: "string" },
});
const lookup = tool(
  "internet_lookup",
  "Look up a question on the internet; returns a JSON array of {title, link, content}.",
  { q: { type: "string" }, num: { type: "integer", maximum: 3 } },
  ["q"],
);
const readPage = tool("read_page", "Download the page at the given address and return its HTML.", {
  address: { type: "string" },
});

const model = createSimModel({ seed: 1, noise: quietNoise });
const mathTask = createSuite({ domain: "math", seed: 2, size: 14, split: "train" })[0]!;

function ask(question: string, tools: Tool[], history: ChatRequest["messages"] = [], seed = 3): ChatRequest {
  return {
    model: "sim-actor",
    seed,
    messages: [
      { role: "system", content: "You are a careful problem solver. End with \\boxed{answer}." },
      { role: "user", content: question },
      ...history,
    ],
    tools,
  };
}

function exchange(
  call: { id: string; name: string; arguments: string },
  output: ChatRequest["messages"][number]["content"],
) {
  return [
    {
      role: "assistant" as const,
      content: null,
      tool_calls: [
        { id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } },
      ],
    },
    { role: "tool" as const, tool_call_id: call.id, content: output },
  ];
}

describe("the policy with a team's own code runner", () => {
  const tools = [explainer, calculator, pyExec];
  const first = model.complete(ask(mathTask.question, tools));

  it("calls the tool that runs Python, with that tool's own argument name", () => {
    expect(first.toolCalls).toHaveLength(1);
    const call = first.toolCalls[0]!;
    expect(call.name).toBe("py_exec");
    expect(Object.keys(JSON.parse(call.arguments))).toEqual(["source"]);
    expect(JSON.parse(call.arguments).source).toMatch(/print\(/);
    // The same program as it writes for tfgrpo's code_interpreter: only the tool's name and argument differ.
    const own = model.complete({
      ...ask(mathTask.question, [
        tool("code_interpreter", "Run Python 3 code and return its stdout.", { code: { type: "string" } }),
      ]),
    });
    expect(JSON.parse(own.toolCalls[0]!.arguments).code).toBe(JSON.parse(call.arguments).source);
  });

  it.each<[string, ChatRequest["messages"][number]["content"]]>([
    ["plain printed text", "4242\n"],
    ["a subprocess's JSON", JSON.stringify({ stdout: "4242\n", returncode: 0 })],
    ["{output}", JSON.stringify({ output: "4242" })],
    ["{result}", JSON.stringify({ result: 4242 })],
    ["a JSON string of a JSON object", JSON.stringify(JSON.stringify({ stdout: "4242\n", exitCode: 0 }))],
    ["LangChain content blocks", [{ type: "text", text: "4242\n" }]],
  ])("answers from what it printed: %s", (_, output) => {
    const final = model.complete(ask(mathTask.question, tools, exchange(first.toolCalls[0]!, output)));
    expect(final.toolCalls).toEqual([]);
    expect(final.content).toMatch(/The code printed 4242\./);
    expect(final.content).toMatch(/\\boxed\{4242\}$/);
  });

  it("retries once on a failed run in the tool's own shape", () => {
    const failed = JSON.stringify({ stdout: "", stderr: "NameError: x\n", returncode: 1 });
    const retry = model.complete(ask(mathTask.question, tools, exchange(first.toolCalls[0]!, failed)));
    expect(retry.content).toMatch(/did not run cleanly \(exit code 1\)/);
    expect(retry.toolCalls[0]?.name).toBe("py_exec");
  });

  it("works it out by hand when no offered tool runs a program", () => {
    const out = model.complete(ask(mathTask.question, [explainer, calculator]));
    expect(out.toolCalls).toEqual([]);
    expect(out.content).toMatch(/by hand/);
  });
});

describe("the policy with a team's own search and page reader", () => {
  const web = createSimModel({ seed: 4, noise: quietNoise });
  const task = createSuite({ domain: "web", seed: 4, size: 7, split: "train" }).find(
    (t) => t.meta?.family === "company-founded",
  )!;
  const instance = web.world.recognize(task.question)!;
  if (instance.domain !== "web") throw new Error("expected a web task");

  it("searches with its query and count arguments, reads JSON results and an HTML page", () => {
    const history: ChatRequest["messages"] = [];
    const calls: { name: string; args: Record<string, unknown> }[] = [];
    let final: string | null = null;
    // A seed where the careless snippet answer is not taken, so the page is read.
    for (let turn = 0; turn < 4 && final === null; turn++) {
      const out = web.complete(ask(task.question, [lookup, readPage], history, 5));
      if (out.toolCalls.length === 0) {
        final = out.content;
        break;
      }
      const call = out.toolCalls[0]!;
      calls.push({ name: call.name, args: JSON.parse(call.arguments) });
      const output =
        call.name === "internet_lookup"
          ? JSON.stringify([
              { title: "About", link: instance.primary.url, content: "Official site." },
              {
                title: "Profile",
                link: instance.snippet!.url,
                content: `founded ${instance.snippet!.value}`,
              },
            ])
          : `<html><body><article><h1>About</h1><p>Founded in <b>${instance.primary.value}</b>.</p></article></body></html>`;
      history.push(...exchange(call, output));
    }
    expect(calls[0]).toEqual({ name: "internet_lookup", args: { q: instance.query, num: 3 } });
    if (calls.length > 1)
      expect(calls[1]).toEqual({ name: "read_page", args: { address: instance.primary.url } });
    expect(final).toMatch(/\\boxed\{/);
    const answers = new Set<string>();
    for (let seed = 0; seed < 30; seed++) {
      const h: ChatRequest["messages"] = [];
      for (let turn = 0; turn < 4; turn++) {
        const out = web.complete(ask(task.question, [lookup, readPage], h, seed));
        if (out.toolCalls.length === 0) {
          answers.add(/\\boxed\{([^}]*)\}/.exec(out.content ?? "")?.[1] ?? "");
          break;
        }
        const call = out.toolCalls[0]!;
        h.push(
          ...exchange(
            call,
            call.name === "internet_lookup"
              ? JSON.stringify([{ title: "About", link: instance.primary.url, content: "Official site." }])
              : JSON.stringify({
                  url: instance.primary.url,
                  content: `Founded in ${instance.primary.value}.`,
                }),
          ),
        );
      }
    }
    // It reads the page's value out of the team's JSON (the snippet value when it falls for the snippet).
    expect(answers.has(instance.answer)).toBe(true);
    expect([...answers].every((a) => a === instance.answer || a === instance.snippet!.value)).toBe(true);
  });
});
