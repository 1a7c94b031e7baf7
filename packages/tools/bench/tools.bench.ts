// Tools benchmark: sandbox start-up per cell (fresh sandbox per call vs a warm notebook session), concurrent
// sandboxes, the first code call of a rollout cold and from the warm pool (with the sandbox's CPU per rollout), BM25
// indexing and queries over a synthetic corpus, and HTML-to-Markdown conversion.
// Run: pnpm --filter @tfgrpo/tools bench

import os from "node:os";
import { performance } from "node:perf_hooks";
import { createCodeInterpreter } from "../src/code-interpreter/code-interpreter.js";
import { htmlToMarkdown } from "../src/web-fetch/html-to-markdown.js";
import { createBm25Index } from "../src/web-search/bm25-index.js";
import { firstCodeCallRows, summary } from "./first-code-call.js";

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

async function sandboxRows() {
  const interpreter = createCodeInterpreter({ timeoutMs: 20_000 });
  const sandbox = await interpreter.sandbox();
  const rows: Record<string, unknown>[] = [];

  const fresh: number[] = [];
  const startup: number[] = [];
  for (let i = 0; i < 10; i++) {
    const [ms, result] = await timed(() => interpreter.run("print(1)"));
    fresh.push(ms);
    startup.push(result.startupMs ?? 0);
  }
  rows.push({
    case: `fresh sandbox per call (${sandbox}), print(1)`,
    ...summary(fresh),
    "start-up p50 ms": summary(startup).p50Ms,
  });

  const session = interpreter.session();
  await session.run("x = 0");
  const warm: number[] = [];
  for (let i = 0; i < 50; i++) warm.push((await timed(() => session.run("x += 1\nprint(x)")))[0]);
  rows.push({ case: "warm session cell, print(x)", ...summary(warm) });
  const [sympyMs] = await timed(() => session.run("import sympy"));
  rows.push({ case: "first `import sympy` in a session", p50Ms: sympyMs.toFixed(1), runs: 1 });
  const solve: number[] = [];
  for (let i = 0; i < 10; i++) {
    solve.push(
      (await timed(() => session.run(`sympy.solve(sympy.Symbol('t')**2 - ${i + 2}, sympy.Symbol('t'))`)))[0],
    );
  }
  rows.push({ case: "warm session, sympy.solve of a quadratic", ...summary(solve) });
  await session.close();

  for (const parallel of [4, 8]) {
    const sessions = Array.from({ length: parallel }, () => interpreter.session());
    const [ms] = await timed(() => Promise.all(sessions.map((each) => each.run("print(1)"))));
    rows.push({
      case: `${parallel} sessions started at once (wall time for all)`,
      p50Ms: ms.toFixed(1),
      runs: 1,
    });
    await Promise.all(sessions.map((each) => each.close()));
  }
  await interpreter.close();
  return rows;
}

function corpusRows() {
  // Deterministic synthetic documents: a fixed vocabulary, words picked by a linear congruential sequence.
  const vocabulary = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  const documents = Array.from({ length: 5000 }, (_, i) => ({
    url: `http://corpus.test/doc/${i}`,
    title: Array.from({ length: 5 }, () => vocabulary[next() % vocabulary.length]).join(" "),
    text: Array.from(
      { length: 30 },
      () => `${Array.from({ length: 12 }, () => vocabulary[next() % vocabulary.length]).join(" ")}.`,
    ).join(" "),
  }));
  const [buildMs, index] = (() => {
    const start = performance.now();
    const built = createBm25Index(documents);
    return [performance.now() - start, built] as const;
  })();
  const queries: number[] = [];
  for (let i = 0; i < 200; i++) {
    const query = Array.from({ length: 4 }, () => vocabulary[next() % vocabulary.length]).join(" ");
    const start = performance.now();
    index.search(query, 5);
    queries.push(performance.now() - start);
  }
  return [
    { case: "BM25 index build, 5000 docs x 360 words", p50Ms: buildMs.toFixed(1), runs: 1 },
    { case: "BM25 query (4 terms, top 5 with snippets)", ...summary(queries) },
  ];
}

function markdownRows() {
  const section = (i: number) =>
    `<h2>Section ${i}</h2><p>${"A sentence about the topic with a <a href='/l" + i + "'>link</a>. ".repeat(8)}</p><ul><li>one</li><li>two</li></ul>`;
  const rows: Record<string, unknown>[] = [];
  for (const sections of [20, 200]) {
    const html = `<html><head><title>Bench</title></head><body><nav><a href="/">Home</a></nav><main>${Array.from(
      { length: sections },
      (_, i) => section(i),
    ).join("")}</main></body></html>`;
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      htmlToMarkdown(html, "http://bench.test/page.html");
      times.push(performance.now() - start);
    }
    rows.push({ case: `HTML to Markdown, ${Math.round(html.length / 1024)} KB page`, ...summary(times) });
  }
  return rows;
}

const loadBefore = os.loadavg();
const sandbox = await sandboxRows();
const firstCalls = await firstCodeCallRows();
console.log(
  `tfgrpo tools benchmark (${os.cpus().length} CPUs; times in ms; load average ${loadBefore.map((l) => l.toFixed(2)).join(" ")} at the start, ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")} after the sandbox rows)`,
);
console.table([...sandbox, ...firstCalls, ...corpusRows(), ...markdownRows()]);
