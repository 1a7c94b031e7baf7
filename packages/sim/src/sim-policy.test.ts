import { describe, expect, it } from "vitest";
import { quietNoise } from "./behaviour.js";
import type { ChatRequest } from "./chat-request.js";
import { rangeEndpoints } from "./pitfalls/math-pitfalls.js";
import { snippetVersusOfficial } from "./pitfalls/web-pitfalls.js";
import { createSimModel } from "./sim-model.js";
import { createSuite } from "./suites/create-suite.js";
import { loadLessonBank } from "./testing/lesson-bank.js";

const model = createSimModel({ seed: 1, noise: quietNoise });
const tools = ["code_interpreter", "web_search", "web_fetch"].map((name) => ({
  type: "function",
  function: { name, parameters: { type: "object" } },
}));

function request(
  question: string,
  options: {
    experiences?: string[];
    mostUseful?: string[];
    seed?: number;
    withTools?: boolean;
    history?: ChatRequest["messages"];
  } = {},
): ChatRequest {
  const lines = (options.experiences ?? []).map((text, i) => `[G${i}]. ${text}`);
  const useful = (options.mostUseful ?? []).map((text, i) => `[G${i + 50}]. ${text}`);
  const system = [
    "You are a mathematical problem solver.",
    ...(lines.length > 0 ? ["# Learned Experiences", ...lines] : []),
    ...(useful.length > 0 ? ["", "# Most Useful Experiences", ...useful] : []),
    "Cite ids like [G3]. End with \\boxed{answer}.",
  ].join("\n");
  return {
    model: "sim-actor",
    seed: options.seed ?? 1,
    messages: [
      { role: "system", content: system },
      { role: "user", content: question },
      ...(options.history ?? []),
    ],
    ...(options.withTools === false ? {} : { tools }),
  };
}

const rangeTask = createSuite({ domain: "math", seed: 2, size: 14, split: "train" }).find(
  (t) => t.meta?.family === "range-multiples",
)!;

// Lessons written by someone who never read the sim (test-data/lesson-bank).
const bank = loadLessonBank("math").pitfalls[rangeEndpoints.id]!;

/** The policy's choice shows only in its code: range(a + 1, b) leaves both ends out. */
function fellIn(out: { toolCalls: { arguments: string }[] }): boolean {
  const code = JSON.parse(out.toolCalls[0]!.arguments).code as string;
  if (/range\(-?\d+ \+ 1, -?\d+\)/.test(code)) return true;
  expect(code).toMatch(/range\(-?\d+, -?\d+ \+ 1\)/);
  return false;
}

function fallRate(experiences: string[], mostUseful: string[] = []): number {
  let fallen = 0;
  for (let seed = 0; seed < 300; seed++) {
    if (fellIn(model.complete(request(rangeTask.question, { experiences, mostUseful, seed })))) fallen++;
  }
  return fallen / 300;
}

describe("simulated policy: pitfalls and experiences", () => {
  it("falls into an unaddressed pitfall most of the time", () => {
    const rate = fallRate([]);
    expect(rate).toBeGreaterThan(0.7);
    expect(rate).toBeLessThan(0.9);
  });

  it("rarely falls when a lesson addresses it, in any wording or position", () => {
    for (const lesson of [
      bank.correct[0]!,
      "Inclusive intervals: tally both ends too; the first and last numbers are part of the count.",
      "Use range(lo, hi + 1) when both bounds belong to the count.",
      `${bank.correct[2]} Also keep intermediate values exact and round only at the end.`,
    ]) {
      expect(fallRate(["Be careful with calculations.", lesson]), lesson).toBeLessThan(0.22);
    }
    expect(fallRate([], [bank.correct[1]!])).toBeLessThan(0.22);
  });

  it("falls more often when a lesson points the wrong way, and a vague one helps only a little", () => {
    expect(fallRate([bank.harmful[0]!])).toBeGreaterThan(0.88);
    const none = fallRate([]);
    const vague = fallRate(["When counting over a range, think about the endpoints."]);
    expect(vague).toBeLessThan(none);
    expect(vague).toBeGreaterThan(0.6);
    const stub = fallRate([bank.stubs[0]!]);
    expect(stub).toBeGreaterThan(0.6);
  });

  it("is not helped by lessons about other things", () => {
    expect(fallRate(["When reducing a negative number modulo m, give the least nonnegative residue."])).toBe(
      fallRate([]),
    );
    expect(fallRate(loadLessonBank("math").unrelated.slice(0, 10))).toBe(fallRate([]));
  });

  it("cites the experience it applied, and does not explain its choice", () => {
    const experiences = ["Be careful.", bank.correct[0]!];
    const seed = [...Array(50).keys()].find(
      (s) => !fellIn(model.complete(request(rangeTask.question, { experiences, seed: s }))),
    )!;
    const first = model.complete(request(rangeTask.question, { experiences, seed }));
    expect(first.content).not.toMatch(/endpoint|inclusive|exclud/i);
    const call = first.toolCalls[0]!;
    const final = model.complete(
      request(rangeTask.question, {
        experiences,
        seed,
        history: [
          {
            role: "assistant",
            content: first.content,
            tool_calls: [
              { id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } },
            ],
          },
          { role: "tool", tool_call_id: call.id, content: JSON.stringify({ stdout: "12\n", exitCode: 0 }) },
        ],
      }),
    );
    expect(final.content).toContain("[G1]");
    expect(final.content).not.toContain("[G0]");
  });
});

describe("simulated policy: the tool loop", () => {
  const first = model.complete(request(rangeTask.question, { seed: 3 }));
  const call = first.toolCalls[0]!;
  const withResult = (output: string, extra: ChatRequest["messages"] = []) =>
    request(rangeTask.question, {
      seed: 3,
      history: [
        {
          role: "assistant",
          content: first.content,
          tool_calls: [
            { id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } },
          ],
        },
        { role: "tool", tool_call_id: call.id, content: output },
        ...extra,
      ],
    });

  it("writes Python for the code interpreter, then answers with what it printed", () => {
    expect(call.name).toBe("code_interpreter");
    expect(JSON.parse(call.arguments).code).toMatch(/print\(count\)/);
    const final = model.complete(
      withResult(JSON.stringify({ stdout: "4242\n", stderr: "", exitCode: 0, killed: false })),
    );
    expect(final.toolCalls).toEqual([]);
    expect(final.content).toMatch(/\\boxed\{4242\}$/);
  });

  it("retries once when the tool fails, then answers anyway", () => {
    const failed = JSON.stringify({ stdout: "", stderr: "Traceback...", exitCode: 1, killed: false });
    const retry = model.complete(withResult(failed));
    expect(retry.toolCalls).toHaveLength(1);
    expect(retry.content).toMatch(/Retrying once/);
    const again = retry.toolCalls[0]!;
    const final = model.complete(
      withResult(failed, [
        {
          role: "assistant",
          content: retry.content,
          tool_calls: [
            { id: again.id, type: "function", function: { name: again.name, arguments: again.arguments } },
          ],
        },
        { role: "tool", tool_call_id: again.id, content: failed },
      ]),
    );
    expect(final.toolCalls).toEqual([]);
    expect(final.content).toMatch(/\\boxed\{-?\d+\}/);
  });

  it("answers without tools in direct mode", () => {
    const out = model.complete(request(rangeTask.question, { withTools: false }));
    expect(out.toolCalls).toEqual([]);
    expect(out.content).toMatch(/\\boxed\{-?\d+\}/);
  });

  it("answers a question it does not know instead of failing", () => {
    const out = model.complete(request("What is the airspeed of an unladen swallow in 1975?"));
    expect(out.toolCalls).toEqual([]);
    expect(out.content).toMatch(/\\boxed\{1975\}/);
  });

  it("is deterministic", () => {
    expect(model.complete(request(rangeTask.question, { seed: 3 }))).toEqual(first);
    const other = createSimModel({ seed: 2, noise: quietNoise });
    // The choice shows in the code it writes (its prose does not explain it).
    const code = (m: typeof model, s: number) =>
      m.complete(request(rangeTask.question, { seed: s })).toolCalls[0]!.arguments;
    const differs = [...Array(20).keys()].some((s) => code(other, s) !== code(model, s));
    expect(differs).toBe(true);
  });

  it("emits malformed tool calls and loops when its noise asks for it", () => {
    const noisy = createSimModel({
      seed: 1,
      noise: { ...quietNoise, actor: { malformedToolCall: 1, loop: 1 } },
    });
    const out = noisy.complete(request(rangeTask.question));
    expect(() => JSON.parse(out.toolCalls[0]!.arguments)).toThrow();
    const looping = createSimModel({
      seed: 1,
      noise: { ...quietNoise, actor: { malformedToolCall: 0, loop: 1 } },
    });
    expect(
      looping.complete(withResult(JSON.stringify({ stdout: "1\n", exitCode: 0 }))).toolCalls,
    ).toHaveLength(1);
  });
});

describe("simulated policy: web tasks", () => {
  const web = createSimModel({ seed: 4, noise: quietNoise });
  const task = createSuite({ domain: "web", seed: 4, size: 7, split: "train" }).find(
    (t) => t.meta?.family === "company-founded",
  )!;
  const instance = web.world.recognize(task.question)!;
  if (instance.domain !== "web") throw new Error("expected a web task");

  function run(seed: number, experiences: string[], corpusBase: string | null) {
    const history: ChatRequest["messages"] = [];
    for (let turn = 0; turn < 4; turn++) {
      const out = web.complete(request(task.question, { seed, experiences, history }));
      if (out.toolCalls.length === 0) return { content: out.content!, history };
      const c = out.toolCalls[0]!;
      const args = JSON.parse(c.arguments);
      let output: string;
      if (c.name === "web_search") {
        const served = (url: string) =>
          corpusBase ? `${corpusBase}/${new URL(url).host}${new URL(url).pathname}` : url;
        output = `1. About\n   URL: ${served(instance.primary.url)}\n   Official site.\n2. Profile\n   URL: ${served(instance.snippet!.url)}\n   founded ${instance.snippet!.value}`;
      } else output = `# About\n\nFounded in ${instance.primary.value}.`;
      history.push(
        {
          role: "assistant",
          content: out.content,
          tool_calls: [{ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }],
        },
        { role: "tool", tool_call_id: c.id, content: output },
      );
      if (c.name === "web_fetch")
        expect(args.url).toBe(
          corpusBase ? `${corpusBase}/${new URL(instance.primary.url).host}/about` : instance.primary.url,
        );
    }
    throw new Error("no answer");
  }

  it("answers from the snippet when careless and from the official page when a lesson says to verify", () => {
    let fromSnippet = 0;
    let verified = 0;
    for (let seed = 0; seed < 60; seed++) {
      const careless = run(seed, [], null);
      if (careless.content.includes(`\\boxed{${instance.snippet!.value}}`)) fromSnippet++;
      const careful = run(
        seed,
        [loadLessonBank("web").pitfalls[snippetVersusOfficial.id]!.correct[0]!],
        "http://127.0.0.1:9/corpus",
      );
      if (careful.content.includes(`\\boxed{${instance.answer}}`)) verified++;
    }
    expect(fromSnippet).toBeGreaterThan(40);
    expect(verified).toBeGreaterThan(45);
  });
});
