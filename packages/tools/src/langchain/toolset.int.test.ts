import { writeFile } from "node:fs/promises";
import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CorpusServer, startCorpusServer } from "../testing/start-corpus-server.js";
import { createToolResources } from "./tool-resources.js";
import { createToolset } from "./toolset.js";

describe("toolsets per rollout (real sandbox, real HTTP corpus)", () => {
  let server: CorpusServer;
  let directory: TemporaryDirectory;
  let corpusPath: string;

  beforeAll(async () => {
    server = await startCorpusServer();
    directory = await temporaryDirectory("tfgrpo-toolset-");
    corpusPath = path.join(directory.path, "corpus.jsonl");
    await writeFile(corpusPath, server.documents.map((document) => JSON.stringify(document)).join("\n"));
  });

  afterAll(async () => {
    await server.close();
    await directory[Symbol.asyncDispose]();
  });

  it("math: a code interpreter whose variables live for the rollout and end with it", async () => {
    const resources = createToolResources({ codeInterpreter: { timeoutMs: 60_000 } });
    const first = createToolset({ domain: "math", resources });
    expect(first.names).toEqual(["code_interpreter"]);
    const [code] = first.tools;
    expect(JSON.parse(await code!.invoke({ code: "n = sum(range(101))" })).exitCode).toBe(0);
    expect(JSON.parse(await code!.invoke({ code: "n" })).stdout).toBe("5050\n");
    // Another rollout does not see this one's variables.
    const second = createToolset({ domain: "math", resources });
    expect(JSON.parse(await second.tools[0]!.invoke({ code: "'n' in globals()" })).stdout).toBe("False\n");
    await Promise.all([first.close(), second.close()]);
    await resources.close();
  });

  it("web: search the local corpus, then read a result over HTTP", async () => {
    const resources = createToolResources({
      search: { provider: "local", path: corpusPath },
      fetch: { allowHosts: [server.hostPort], timeoutMs: 30_000 },
    });
    const toolset = createToolset({ domain: "web", resources });
    expect(toolset.names).toEqual(["web_search", "web_fetch"]);
    const [search, fetch] = toolset.tools;
    const results = await search!.invoke({ query: "Gustave Eiffel birthplace", max_results: 3 });
    const firstUrl = /URL: (\S+)/.exec(results)![1]!;
    expect(firstUrl).toBe(`${server.baseUrl}wiki/gustave-eiffel.html`);
    const page = await fetch!.invoke({ url: firstUrl, find: "born" });
    expect(page).toContain("Title: Gustave Eiffel");
    expect(page).toContain("He was born in Dijon.");
    await toolset.close();
    await resources.close();
  });

  it("web_fetch still refuses loopback hosts that are not allowed", async () => {
    const toolset = createToolset({
      domain: "web",
      config: { search: { provider: "local", path: corpusPath } },
    });
    const answer = await toolset.tools[1]!.invoke({ url: `${server.baseUrl}index.html` });
    expect(answer).toMatch(/^Error: web_fetch: refused http:\/\/127\.0\.0\.1:\d+\/index\.html/);
    await toolset.close();
  });

  it("a domain that needs search without a provider is a config error naming the field", () => {
    const error = (() => {
      try {
        createToolset({ domain: "web", config: {} });
      } catch (caught) {
        return caught;
      }
    })();
    expect(TfgrpoError.hasCode(error, "invalid_config")).toBe(true);
    expect((error as Error).message).toBe("domain web uses web_search but no search provider is configured");
  });

  it("tools per domain come from the config when it names them", async () => {
    const toolset = createToolset({
      domain: "science",
      config: { domains: { science: ["code_interpreter", "web_fetch"] } },
    });
    expect(toolset.tools.map((tool) => tool.name)).toEqual(["code_interpreter", "web_fetch"]);
    await toolset.close();
  });
});
