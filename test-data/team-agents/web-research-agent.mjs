// A team's web research agent: LangChain createAgent + ChatOpenAI with the team's OWN two tools,
// `search_documents` (find pages) and `read_page` (read one page), and tfgrpo's experienceMiddleware listed first.
//
//   tfgrpo sim corpus --seed 11 --out /tmp/web-corpus.jsonl          # the simulated web of a world, as JSONL
//   TEAM_WEB_CORPUS=/tmp/web-corpus.jsonl \
//     tfgrpo eval --sim --agent test-data/independent/agents/web-research-agent.mjs --domain web --data test.jsonl --library none --k 4
//   TEAM_WEB_CORPUS=/tmp/web-corpus.jsonl node web-research-agent.mjs "What is the population of Drami?"
//
// WHERE THE PAGES COME FROM (an assumption, stated plainly). The documentation this agent was written from
// (README.md, docs/agents.md, docs/tools.md and the CLI's --help) says:
//   - under `--sim`, tfgrpo sets SIM_PORT for an agent module, and the module points its model client at
//     http://127.0.0.1:$SIM_PORT/v1 (the SIMULATED model server);
//   - `tfgrpo sim serve` runs "the simulated OpenAI-compatible model server and simulated web", and
//     `tfgrpo sim corpus [--seed S] [--out PATH] [--base-url URL]` writes "the simulated web of a world seed (for a
//     local-corpus search index)" as JSONL lines {"url", "title"?, "content"}; `--base-url` is "a running sim server's
//     corpus URL: documents get the addresses it serves them at";
//   - tfgrpo's own web_search reads such a file with a local BM25 index, and its web_fetch is allowed to reach "the sim
//     corpus host".
// None of those documents names an HTTP *search* endpoint, or an environment variable that tells an agent module
// where the simulated corpus is. So this agent does not guess one:
//   - search: a BM25 index over the JSONL file named by TEAM_WEB_CORPUS (written by `tfgrpo sim corpus` for the same
//     world seed as the tasks); or, if TEAM_SEARXNG_URL is set instead, a SearXNG instance (/search?format=json);
//   - reading: a page whose URL is in that corpus file is read from the file; any other http(s) URL is fetched over
//     HTTP (e.g. the addresses a running sim server serves, when the corpus was written with --base-url).
// Without TEAM_WEB_CORPUS or TEAM_SEARXNG_URL, search_documents answers with an error text saying so.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { ChatOpenAI } from "@langchain/openai";
import { experienceMiddleware } from "@tfgrpo/langgraph";
import { createAgent, tool } from "langchain";
import { z } from "zod";

const PAGE_CHARS = 12_000;
const FETCH_TIMEOUT_MS = 15_000;

// ---------- text helpers ----------

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** A rough HTML-to-text: drops scripts/styles, keeps paragraph breaks, decodes common entities. */
function htmlToText(html) {
  if (!/<[a-z!/][^>]*>/i.test(html)) return html.trim();
  return html
    .replace(/<(script|style|noscript)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|li|tr|h[1-6]|section|article|table|ul|ol)>/gi, "\n")
    .replace(/<(td|th)[^>]*>/gi, " | ")
    .replace(/<li[^>]*>/gi, "- ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, e) => {
      if (e[0] === "#")
        return String.fromCodePoint(
          e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)),
        );
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/[ \t]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function tokens(text) {
  return String(text)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((t) => (t.length > 3 && t.endsWith("s") && !t.endsWith("ss") ? t.slice(0, -1) : t));
}

// ---------- the corpus (JSONL) and its BM25 index ----------

let corpusCache;

function loadCorpus() {
  const path = process.env.TEAM_WEB_CORPUS;
  if (!path) return undefined;
  if (corpusCache?.path === path) return corpusCache;
  const docs = [];
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (!line.trim()) return;
      let row;
      try {
        row = JSON.parse(line);
      } catch {
        throw new Error(`${path}:${i + 1}: not a JSON line`);
      }
      if (typeof row.url !== "string" || typeof row.content !== "string") return;
      const text = htmlToText(row.content);
      const title = row.title ?? /<title>([^<]*)<\/title>/i.exec(row.content)?.[1]?.trim() ?? row.url;
      const terms = [...tokens(title), ...tokens(title), ...tokens(title), ...tokens(text)]; // title weighs 3
      const tf = new Map();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      docs.push({ url: row.url, title, text, tf, length: terms.length });
    });
  const df = new Map();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const avgLength = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
  const byUrl = new Map(docs.map((d) => [d.url, d]));
  corpusCache = { path, docs, df, avgLength, byUrl };
  return corpusCache;
}

function bm25Search(corpus, query, limit) {
  const q = [...new Set(tokens(query))];
  const n = corpus.docs.length;
  const idf = (t) => Math.log(1 + (n - (corpus.df.get(t) ?? 0) + 0.5) / ((corpus.df.get(t) ?? 0) + 0.5));
  const k1 = 1.2;
  const b = 0.75;
  return corpus.docs
    .map((d) => {
      let score = 0;
      for (const t of q) {
        const f = d.tf.get(t);
        if (!f) continue;
        score += (idf(t) * f * (k1 + 1)) / (f + k1 * (1 - b + (b * d.length) / corpus.avgLength));
      }
      return { d, score };
    })
    .filter((r) => r.score > 0)
    .sort((a, b2) => b2.score - a.score)
    .slice(0, limit)
    .map(({ d, score }) => ({ title: d.title, url: d.url, snippet: bestSnippet(d.text, q), score }));
}

function bestSnippet(text, queryTerms) {
  const sentences = text.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim());
  const want = new Set(queryTerms);
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < sentences.length; i++) {
    const window = sentences.slice(i, i + 3).join(" ");
    const score = new Set(tokens(window).filter((t) => want.has(t))).size;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return sentences
    .slice(best, best + 3)
    .join(" ")
    .slice(0, 400);
}

async function searxngSearch(baseUrl, query, limit, signal) {
  const url = new URL("/search", baseUrl);
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  const res = await fetch(url, {
    signal: AbortSignal.any([AbortSignal.timeout(FETCH_TIMEOUT_MS), ...(signal ? [signal] : [])]),
  });
  if (!res.ok) throw new Error(`SearXNG answered HTTP ${res.status}`);
  const body = await res.json();
  return (body.results ?? [])
    .slice(0, limit)
    .map((r) => ({ title: r.title, url: r.url, snippet: r.content ?? "" }));
}

// ---------- the two tools ----------

const searchDocuments = tool(
  async ({ keywords, how_many }, config) => {
    const limit = Math.min(Math.max(how_many ?? 5, 1), 10);
    try {
      let results;
      const corpus = loadCorpus();
      if (corpus) results = bm25Search(corpus, keywords, limit);
      else if (process.env.TEAM_SEARXNG_URL)
        results = await searxngSearch(process.env.TEAM_SEARXNG_URL, keywords, limit, config?.signal);
      else
        return "Error: no search backend is configured for this agent (set TEAM_WEB_CORPUS to a JSONL corpus, or TEAM_SEARXNG_URL).";
      if (results.length === 0) return `No pages matched "${keywords}". Try other or fewer words.`;
      return results.map((r, i) => `${i + 1}. ${r.title}\n   ${r.url}\n   ${r.snippet}`).join("\n");
    } catch (error) {
      return `Error: search failed: ${error?.message ?? error}`;
    }
  },
  {
    name: "search_documents",
    description:
      "Searches the web pages available to this agent by keywords and returns the best matches: title, URL and a short snippet of each.",
    schema: z.object({
      keywords: z
        .string()
        .describe("What to look for, as a few keywords (e.g. an exact name and the fact wanted)."),
      how_many: z
        .number()
        .int()
        .min(1)
        .max(10)
        .optional()
        .describe("How many results to return (default 5)."),
    }),
  },
);

function focusOn(text, phrase) {
  const paragraphs = text.split(/\n{2,}|\n/).filter((p) => p.trim());
  const words = tokens(phrase);
  const hits = paragraphs.filter((p) => {
    const lower = p.toLowerCase();
    if (lower.includes(phrase.toLowerCase())) return true;
    const ts = new Set(tokens(p));
    return words.length > 0 && words.every((w) => ts.has(w));
  });
  return hits.slice(0, 8).join("\n\n");
}

const readPage = tool(
  async ({ link, look_for }, config) => {
    try {
      let title;
      let text;
      const corpus = loadCorpus();
      const doc = corpus?.byUrl.get(link);
      if (doc) {
        title = doc.title;
        text = doc.text;
      } else {
        const url = new URL(link);
        if (url.protocol !== "http:" && url.protocol !== "https:")
          return `Error: only http(s) pages can be read, not ${url.protocol}`;
        const res = await fetch(url, {
          redirect: "follow",
          signal: AbortSignal.any([
            AbortSignal.timeout(FETCH_TIMEOUT_MS),
            ...(config?.signal ? [config.signal] : []),
          ]),
        });
        const body = (await res.text()).slice(0, 2_000_000);
        title = /<title>([^<]*)<\/title>/i.exec(body)?.[1]?.trim() ?? link;
        text = `${res.ok ? "" : `(HTTP ${res.status})\n`}${htmlToText(body)}`;
      }
      if (look_for) {
        const focused = focusOn(text, look_for);
        return `# ${title}\n${link}\n\n${focused || `(no paragraph mentions "${look_for}"; whole page follows)\n\n${text.slice(0, PAGE_CHARS)}`}`;
      }
      const cut =
        text.length > PAGE_CHARS
          ? `\n\n[page cut at ${PAGE_CHARS} characters; pass look_for to see the parts you need]`
          : "";
      return `# ${title}\n${link}\n\n${text.slice(0, PAGE_CHARS)}${cut}`;
    } catch (error) {
      return `Error: could not read ${link}: ${error?.message ?? error}`;
    }
  },
  {
    name: "read_page",
    description:
      "Reads one web page by its URL (as returned by search_documents) and returns its text; optionally only the paragraphs mentioning a phrase.",
    schema: z.object({
      link: z.string().describe("The page's full URL."),
      look_for: z
        .string()
        .optional()
        .describe("A word or phrase: return only the paragraphs that mention it."),
    }),
  },
);

// ---------- model, middleware, agent ----------

const baseURL = process.env.OPENAI_BASE_URL ?? `http://127.0.0.1:${process.env.SIM_PORT ?? 8787}/v1`;
const model = new ChatOpenAI({
  model: process.env.AGENT_MODEL ?? "sim-actor",
  apiKey: process.env.OPENAI_API_KEY ?? "sim",
  configuration: { baseURL },
});

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
  domain: "web",
  reward: (run) => /\\boxed\{[^}]+\}/.test(run.finalText ?? ""),
});

export const agent = createAgent({
  model,
  tools: [searchDocuments, readPage],
  systemPrompt:
    "You answer factual questions about cities, companies and products by looking them up. Use search_documents to " +
    "find candidate pages and read_page to read the one that is really about the thing asked. Answer only from what " +
    "the pages say, in the unit the question asks for. Put the final answer alone in \\boxed{...}.",
  middleware: [experience],
});

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const state = await experience.run(() =>
    agent.invoke({
      messages: [{ role: "user", content: process.argv[2] ?? "What is the population of Drami?" }],
    }),
  );
  console.log(state.messages.at(-1)?.text);
}
