import { writeFile } from "node:fs/promises";
import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { type CorpusServer, startCorpusServer } from "@tfgrpo/tools/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/spawn-cli.js";
import { runTool } from "./tool.js";

const cli = (args: string[]) => runCli(args);

describe("tfgrpo tool run", () => {
  let server: CorpusServer;
  let dir: TemporaryDirectory;
  let corpus: string;

  beforeAll(async () => {
    server = await startCorpusServer();
    dir = await temporaryDirectory("tfgrpo-tool-cli-");
    corpus = path.join(dir.path, "corpus.jsonl");
    await writeFile(corpus, server.documents.map((document) => JSON.stringify(document)).join("\n"));
  });

  afterAll(async () => {
    await server.close();
    await dir[Symbol.asyncDispose]();
  });

  it("runs code in the sandbox and prints the result as JSON", async () => {
    const { code, stdout } = await cli([
      "tool",
      "run",
      "code_interpreter",
      "--input",
      '{"code": "print(2**10)"}',
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      stdout: "1024\n",
      exitCode: 0,
      killed: false,
      sandbox: "bubblewrap",
    });
  });

  // The rest goes through runTool in-process: the same code path, without a CLI start-up per case.
  it("searches a local corpus and fetches a loopback page only with an allowed host", async () => {
    const found = (await runTool({
      name: "web_search",
      corpus,
      input: '{"query": "river festival boat races"}',
    })) as {
      results: { title: string; url: string }[];
    };
    const [first] = found.results;
    expect(first).toMatchObject({
      title: "River festival returns",
      url: `${server.baseUrl}news/river-festival.html`,
    });

    const input = JSON.stringify({ url: first!.url, find: "boat races start" });
    await expect(runTool({ name: "web_fetch", input })).rejects.toThrow(
      `"${server.hostPort}" is in allowHosts`,
    );
    const page = await runTool({ name: "web_fetch", input, allowHosts: [server.hostPort], modelView: true });
    expect(page).toContain("Title: River festival returns");
    expect(page).toContain("the boat races start at 10:00");
  });

  it("names the field of an invalid input, and the providers web_search can use", async () => {
    await expect(runTool({ name: "web_search", corpus, input: '{"max_results": 2}' })).rejects.toThrow(
      "tool web_search: --input: query:",
    );
    await expect(runTool({ name: "web_search", input: '{"query": "x"}' })).rejects.toThrow(
      "--corpus PATH, --searxng URL",
    );
    await expect(runTool({ name: "shell", input: "{}" })).rejects.toThrow("unknown tool shell");
  });
});
