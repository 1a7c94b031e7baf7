import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureCorpusDocuments } from "../testing/fixture-corpus.js";
import { createLocalCorpusProvider } from "./local-corpus-provider.js";
import { createWebSearch } from "./web-search.js";

describe("local corpus provider (BM25)", () => {
  let temporary: TemporaryDirectory;
  let directory: string;

  beforeAll(async () => {
    temporary = await temporaryDirectory("tfgrpo-corpus-");
    directory = temporary.path;
    const documents = fixtureCorpusDocuments("http://corpus.test/");
    await writeFile(
      path.join(directory, "corpus.jsonl"),
      `${documents.map((d) => JSON.stringify(d)).join("\n")}\n`,
    );
    await mkdir(path.join(directory, "site", "nested"), { recursive: true });
    await writeFile(
      path.join(directory, "site", "volcano.html"),
      "<html><head><title>Mount Etna</title></head><body><p>Mount Etna is an active volcano on the east coast of Sicily.</p></body></html>",
    );
    await writeFile(
      path.join(directory, "site", "nested", "tides.md"),
      "# Tides\n\nTides are the rise and fall of sea levels caused by the gravity of the Moon and the Sun.",
    );
    await writeFile(path.join(directory, "site", "ignored.pdf"), "%PDF-1.4 binary");
    await writeFile(
      path.join(directory, "bad.jsonl"),
      '{"url":"http://x.test/a","content":"ok"}\n{"url": 3}\n',
    );
  });

  afterAll(() => temporary[Symbol.asyncDispose]());

  it("ranks the page about the query first, with the best passage as snippet", async () => {
    const search = createWebSearch({
      provider: createLocalCorpusProvider({ path: path.join(directory, "corpus.jsonl") }),
    });
    const { results } = await search.search("When was the Eiffel Tower completed?", { maxResults: 3 });
    expect(results[0]).toMatchObject({
      title: "Eiffel Tower",
      url: "http://corpus.test/wiki/eiffel-tower.html",
    });
    expect(results[0]!.snippet).toContain("completed in 1889");
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score!);
    expect(results.length).toBeLessThanOrEqual(3);
  });

  it("matches plurals to singulars, Markdown documents and Chinese text", async () => {
    const provider = createLocalCorpusProvider({ documents: fixtureCorpusDocuments() });
    const primes = await provider.search("how many primes below 1000", { maxResults: 1 });
    expect(primes[0]!.title).toBe("Prime numbers");
    const wall = await provider.search("明长城总长度", { maxResults: 1 });
    expect(wall[0]!.title).toBe("长城");
    expect(wall[0]!.snippet).toContain("八千八百五十公里");
  });

  it("indexes a folder of HTML and Markdown files recursively, with URLs under baseUrl", async () => {
    const provider = createLocalCorpusProvider({
      path: path.join(directory, "site"),
      baseUrl: "http://127.0.0.1:9999/",
    });
    expect(await provider.size()).toBe(2);
    const [hit] = await provider.search("volcano Sicily", { maxResults: 5 });
    expect(hit).toMatchObject({ title: "Mount Etna", url: "http://127.0.0.1:9999/volcano.html" });
    const [tides] = await provider.search("moon gravity sea", { maxResults: 1 });
    expect(tides).toMatchObject({ title: "Tides", url: "http://127.0.0.1:9999/nested/tides.md" });
  });

  it("returns nothing for a query with no known word, and refuses an empty query", async () => {
    const search = createWebSearch({
      provider: createLocalCorpusProvider({ documents: fixtureCorpusDocuments() }),
    });
    expect((await search.search("xylophone quasar")).results).toEqual([]);
    await expect(search.search("   ")).rejects.toThrow(/query is empty/);
  });

  it("names the file and line of a broken JSONL document, and a missing corpus path", async () => {
    const broken = createLocalCorpusProvider({ path: path.join(directory, "bad.jsonl") });
    const error = await broken.search("ok", { maxResults: 1 }).catch((caught: unknown) => caught);
    expect(TfgrpoError.hasCode(error, "invalid_dataset")).toBe(true);
    expect((error as Error).message).toContain("bad.jsonl:2");
    expect((error as Error).message).toContain("url");
    const missing = createLocalCorpusProvider({ path: path.join(directory, "nope") });
    await expect(missing.size()).rejects.toThrow(/local corpus not found/);
  });
});
