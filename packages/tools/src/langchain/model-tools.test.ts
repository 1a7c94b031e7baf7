import { ToolMessage } from "@langchain/core/messages";
import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { createScriptedCodeInterpreter } from "../testing/create-scripted-code-interpreter.js";
import { fixtureCorpusDocuments } from "../testing/fixture-corpus.js";
import type { WebFetch, WebFetchResult } from "../web-fetch/web-fetch.js";
import { createLocalCorpusProvider } from "../web-search/local-corpus-provider.js";
import { createWebSearch } from "../web-search/web-search.js";
import { createCodeInterpreterTool } from "./code-interpreter-tool.js";
import { createWebFetchTool } from "./web-fetch-tool.js";
import { createWebSearchTool } from "./web-search-tool.js";

const page: WebFetchResult = {
  url: "http://a.test/x",
  finalUrl: "http://a.test/y",
  status: 200,
  contentType: "text/html",
  title: "Y page",
  markdown: "First paragraph.\n\nSecond paragraph about tides.",
  truncated: false,
};

function fakeFetch(result: WebFetchResult | Error): WebFetch & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    async fetch(url, options) {
      calls.push({ url, ...options });
      if (result instanceof Error) throw result;
      return options?.find
        ? { ...result, matches: [{ text: "Second paragraph about tides.", paragraph: 1, kind: "exact" }] }
        : result;
    },
    close: async () => {},
  };
}

describe("model-facing tools", () => {
  it("have the names and JSON schemas of the prompt contract", () => {
    const code = createCodeInterpreterTool(createScriptedCodeInterpreter(() => ({})).session());
    const search = createWebSearchTool(
      createWebSearch({ provider: createLocalCorpusProvider({ documents: [] }) }),
    );
    const fetch = createWebFetchTool(fakeFetch(page));
    expect([code.name, search.name, fetch.name]).toEqual(["code_interpreter", "web_search", "web_fetch"]);
    expect(Object.keys(code.schema.shape)).toEqual(["code"]);
    expect(Object.keys(search.schema.shape)).toEqual(["query", "max_results"]);
    expect(Object.keys(fetch.schema.shape)).toEqual(["url", "find"]);
  });

  it("code_interpreter answers JSON text with the outcome fields only", async () => {
    const interpreter = createScriptedCodeInterpreter(() => ({ stdout: "4\n", durationMs: 12.5 }));
    const tool = createCodeInterpreterTool(interpreter.session());
    const answer = await tool.invoke({ code: "2 + 2" });
    expect(JSON.parse(answer)).toEqual({ stdout: "4\n", stderr: "", exitCode: 0, killed: false });
    expect(interpreter.calls).toEqual(["2 + 2"]);
    const killed = createCodeInterpreterTool(
      createScriptedCodeInterpreter(() => ({
        exitCode: null,
        signal: "SIGKILL",
        killed: true,
        killedReason: "timeout",
        notice: "n",
      })),
    );
    expect(JSON.parse(await killed.invoke({ code: "while 1: pass" }))).toEqual({
      stdout: "",
      stderr: "",
      exitCode: null,
      killed: true,
      killedReason: "timeout",
      signal: "SIGKILL",
      notice: "n",
    });
  });

  it("turns wrong types and missing fields into an Error answer naming the field, not an exception", async () => {
    const interpreter = createScriptedCodeInterpreter(() => ({}));
    const code = createCodeInterpreterTool(interpreter);
    expect(await code.invoke({ code: 42 } as never)).toMatch(
      /^Error: invalid input for code_interpreter: code: .*expected string.*Expected a JSON object with "code"\.$/,
    );
    expect(await code.invoke({} as never)).toMatch(/^Error: invalid input for code_interpreter: code: /);
    expect(interpreter.calls).toEqual([]);
    const search = createWebSearchTool(
      createWebSearch({ provider: createLocalCorpusProvider({ documents: [] }) }),
    );
    expect(await search.invoke({ query: "x", max_results: "five" } as never)).toMatch(
      /^Error: invalid input for web_search: max_results: .*"query", "max_results" \(optional\)/,
    );
    const fetch = createWebFetchTool(fakeFetch(page));
    expect(await fetch.invoke({ find: "x" } as never)).toMatch(/^Error: invalid input for web_fetch: url: /);
  });

  it("answers a tool call with a ToolMessage, marked as an error when the input is invalid", async () => {
    const tool = createCodeInterpreterTool(createScriptedCodeInterpreter(() => ({ stdout: "ok" })));
    const good = await tool.invoke({
      type: "tool_call",
      id: "call_1",
      name: "code_interpreter",
      args: { code: "print('ok')" },
    });
    expect(good).toBeInstanceOf(ToolMessage);
    expect(good.tool_call_id).toBe("call_1");
    expect(JSON.parse(good.content as string).stdout).toBe("ok");
    const bad = await tool.invoke({
      type: "tool_call",
      id: "call_2",
      name: "code_interpreter",
      args: { source: "x" },
    });
    expect(bad).toBeInstanceOf(ToolMessage);
    expect(bad.status).toBe("error");
    expect(bad.tool_call_id).toBe("call_2");
    expect(bad.content).toMatch(/^Error: invalid input for code_interpreter: code: /);
  });

  it("turns failures while running into an Error answer", async () => {
    const failing = createCodeInterpreterTool(
      createScriptedCodeInterpreter(() => {
        throw new TfgrpoError(
          "sandbox_unavailable",
          "code interpreter refuses to run code: the sandbox is unavailable",
        );
      }),
    );
    expect(await failing.invoke({ code: "1" })).toBe(
      "Error: code interpreter refuses to run code: the sandbox is unavailable",
    );
    const fetch = createWebFetchTool(
      fakeFetch(new TfgrpoError("tool_error", "web_fetch: http://a.test/x timed out after 5 ms")),
    );
    expect(await fetch.invoke({ url: "http://a.test/x" })).toBe(
      "Error: web_fetch: http://a.test/x timed out after 5 ms",
    );
    const crash = createWebFetchTool(fakeFetch(new TypeError("boom")));
    expect(await crash.invoke({ url: "http://a.test/x" })).toBe("Error: web_fetch failed: boom");
  });

  it("web_search answers a numbered list of title, URL and snippet", async () => {
    const tool = createWebSearchTool(
      createWebSearch({ provider: createLocalCorpusProvider({ documents: fixtureCorpusDocuments() }) }),
    );
    const answer = await tool.invoke({ query: "Eiffel Tower height", max_results: 2 });
    expect(answer).toMatch(
      /^1\. Eiffel Tower\n {3}URL: http:\/\/corpus\.test\/wiki\/eiffel-tower\.html\n {3}.+\n\n2\. /,
    );
    expect(answer.split(/\n\n/)).toHaveLength(2);
    expect(await tool.invoke({ query: "xylophone" })).toBe(
      'No results for "xylophone". Try other or fewer keywords.',
    );
  });

  it("web_fetch answers a header and Markdown, or only the matches of find, within maxChars", async () => {
    const fetcher = fakeFetch(page);
    const tool = createWebFetchTool(fetcher, { maxChars: 200 });
    expect(await tool.invoke({ url: "http://a.test/x" })).toBe(
      "Title: Y page\nURL: http://a.test/y (redirected from http://a.test/x)\nStatus: 200\n\nFirst paragraph.\n\nSecond paragraph about tides.",
    );
    const found = await tool.invoke({ url: "http://a.test/x", find: "tides" });
    expect(found).toContain('1 match(es) for "tides":\n\n--- match 1 ---\nSecond paragraph about tides.');
    const long = createWebFetchTool(fakeFetch({ ...page, markdown: "word ".repeat(500) }), { maxChars: 200 });
    const cut = await long.invoke({ url: "http://a.test/x" });
    expect(cut).toMatch(/\[\.\.\. \d+ more characters not shown; use "find" to look for a phrase \.\.\.\]$/);
  });
});
