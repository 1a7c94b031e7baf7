import { parseExperienceLines } from "../text/experience-lines.js";
import {
  jsonResultItems,
  namedAsSearch,
  pageText,
  programArgument,
  queryArgument,
  runOutput,
  urlArgument,
} from "./call-content.js";

/**
 * What a rendered trajectory (stage 1 of the critic) shows, as evidence: the code of each program run (whatever the tool) and
 * what it printed, each web search with its result list, each page opened with its text and date, code written in the
 * final message but never run, the final \boxed answer and the ids it cites. Assistant prose is kept aside and never
 * used as evidence of what was done: a model's description of its own work can be wrong.
 *
 * Two renderings are read: packages/critic's (`Step N (assistant):`, `Tool call NAME:`, `Arguments: {...}`,
 * `Output:`) and the plain one of the sim's tests (`[assistant]`, `[tool call] NAME {...}`, `[tool result]`).
 */

export interface CodeEvidence {
  kind: "code";
  code: string;
  /** False for code written in a message (direct mode) but never run. */
  ran: boolean;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  failed: boolean;
}

export interface SearchHit {
  rank: number;
  title: string;
  url: string;
  date: string | null;
  snippet: string;
}

export interface SearchEvidence {
  kind: "search";
  query: string;
  hits: SearchHit[];
  failed: boolean;
}

export interface PageEvidence {
  kind: "page";
  url: string;
  text: string;
  date: string | null;
  failed: boolean;
}

export interface OtherToolEvidence {
  kind: "tool";
  name: string;
  arguments: string;
  output: string;
}

export type EvidenceEvent = CodeEvidence | SearchEvidence | PageEvidence | OtherToolEvidence;

export interface TrajectoryEvidence {
  problem: string | null;
  /** Ids of the experiences shown to the agent. */
  shown: string[];
  events: EvidenceEvent[];
  finalAnswer: string | null;
  /** Ids cited in the assistant's messages. */
  cited: string[];
}

interface Block {
  kind: "assistant" | "user" | "problem" | "system" | "call" | "output" | "meta";
  name?: string;
  lines: string[];
}

const markers: { pattern: RegExp; open: (m: RegExpExecArray) => Block }[] = [
  { pattern: /^Step \d+ \(assistant\):\s*$/, open: () => ({ kind: "assistant", lines: [] }) },
  { pattern: /^\[assistant\]\s*$/, open: () => ({ kind: "assistant", lines: [] }) },
  { pattern: /^Problem:\s*$/, open: () => ({ kind: "problem", lines: [] }) },
  { pattern: /^(?:User:|\[user\])\s*$/, open: () => ({ kind: "user", lines: [] }) },
  { pattern: /^\[(?:system|developer)\]\s*$/, open: () => ({ kind: "system", lines: [] }) },
  { pattern: /^Experiences shown to the agent:/, open: (m) => ({ kind: "system", lines: [m.input] }) },
  { pattern: /^Tool call ([\w.-]+):\s*$/, open: (m) => ({ kind: "call", name: m[1]!, lines: [] }) },
  {
    pattern: /^\[tool call\] ([\w.-]+)\s?(.*)$/,
    open: (m) => ({ kind: "call", name: m[1]!, lines: [`Arguments: ${m[2] ?? ""}`] }),
  },
  {
    pattern: /^(?:Output(?: \(stored truncated\))?|Tool output(?: \([^)]*\))?):\s*$/,
    open: () => ({ kind: "output", lines: [] }),
  },
  { pattern: /^\[tool result\]\s*$/, open: () => ({ kind: "output", lines: [] }) },
  { pattern: /^(?:Stop reason|Tool error|Error):/, open: (m) => ({ kind: "meta", lines: [m.input] }) },
];

function blocksOf(text: string): Block[] {
  const blocks: Block[] = [{ kind: "meta", lines: [] }];
  for (const line of text.split(/\r?\n/)) {
    let opened: Block | null = null;
    for (const marker of markers) {
      const m = marker.pattern.exec(line);
      if (m) {
        opened = marker.open(m);
        break;
      }
    }
    // The critic's renderer closes with `Final answer: X` after a blank line; inside a message it is just text.
    if (!opened && /^Final answer: (?!.*\\boxed)/.test(line) && blocks.at(-1)!.lines.at(-1)?.trim() === "")
      opened = { kind: "meta", lines: [line] };
    // A tool's output that starts with "Error: ..." is the output, not the trajectory's closing error line.
    const current = blocks.at(-1)!;
    if (opened?.kind === "meta" && current.kind === "output" && current.lines.length === 0) opened = null;
    if (opened) blocks.push(opened);
    else current.lines.push(line);
  }
  return blocks;
}

const monthNames = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** An ISO date (YYYY-MM-DD) from `2015-04-23` or `April 23, 2015`; null when the text holds neither. */
export function isoDate(text: string): string | null {
  const iso = /\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const human = /\b([A-Z][a-z]+)\s+(\d{1,2}),\s+((?:19|20)\d\d)\b/.exec(text);
  if (human) {
    const month = monthNames.indexOf(human[1]!.toLowerCase());
    if (month >= 0) return `${human[3]}-${String(month + 1).padStart(2, "0")}-${human[2]!.padStart(2, "0")}`;
  }
  return null;
}

/** The numbered result list of a web_search output. */
export function parseSearchHits(output: string): SearchHit[] {
  const hits: SearchHit[] = [];
  const lines = output.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const head = /^\s*(\d+)\.\s+(.*)$/.exec(lines[i]!);
    if (!head) continue;
    let url = "";
    const snippet: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*\d+\.\s+/.test(lines[j]!); j++) {
      const line = lines[j]!.trim();
      const address = /^URL:\s*(\S+)/.exec(line);
      if (address) url = address[1]!;
      else if (line !== "") snippet.push(line);
    }
    const text = snippet.join(" ");
    const dated = /^\((\d{4}-\d\d-\d\d)\)\s*/.exec(text);
    hits.push({
      rank: Number(head[1]),
      title: head[2]!.trim(),
      url: url || (/(https?:\/\/\S+)/.exec(head[2]!)?.[1] ?? ""),
      date: dated ? dated[1]! : null,
      snippet: dated ? text.slice(dated[0].length) : text,
    });
    i = j - 1;
  }
  return hits;
}

/** The date a page says it was published (or updated), else a year in its address; null when it shows none. */
export function pageDate(text: string, url: string): string | null {
  const stated = /(?:Published|Updated|Last updated|Date)[:\s]+([^\n]{0,40})/i.exec(text);
  const fromText = stated ? isoDate(stated[1]!) : null;
  if (fromText) return fromText;
  const meta = isoDate(text.split(/\r?\n/).slice(0, 6).join("\n"));
  if (meta) return meta;
  const year = /\/((?:19|20)\d\d)\//.exec(url);
  return year ? `${year[1]}` : null;
}

function lastBoxed(text: string): string | null {
  const all = [...text.matchAll(/\\boxed\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}/g)];
  return all.length > 0 ? all.at(-1)![1]!.trim() : null;
}

function pythonBlocks(text: string): string[] {
  return [...text.matchAll(/```(?:python|py)\s*\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

function searchHits(output: string): SearchHit[] {
  const items = jsonResultItems(output);
  if (!items) return parseSearchHits(output);
  return items.map((item, index) => {
    const dated = /^\((\d{4}-\d\d-\d\d)\)\s*/.exec(item.snippet);
    return {
      rank: index + 1,
      title: item.title,
      url: item.url,
      date: (item.date ? isoDate(item.date) : null) ?? (dated ? dated[1]! : null),
      snippet: dated ? item.snippet.slice(dated[0].length) : item.snippet,
    };
  });
}

/**
 * What one call was, from its content (see call-content.ts): a program run, a search, a page read, or another tool.
 * The tool's name is only a hint: a team's `py_exec(source=...)` is read as code like `code_interpreter(code=...)`.
 */
function eventOf(call: Block, output: string | null): EvidenceEvent {
  const argumentsText = (call.lines.join("\n").match(/Arguments:\s*([\s\S]*)$/)?.[1] ?? "").trim();
  const out = output ?? "";
  const name = call.name ?? "";
  const program = programArgument(name, argumentsText);
  if (program !== null) {
    const run = runOutput(out);
    const failed =
      output === null ||
      run.failedFlag ||
      (run.exitCode !== null && run.exitCode !== 0) ||
      /^Error:/.test(out.trim()) ||
      (!run.structured && /Traceback/.test(out));
    return {
      kind: "code",
      code: program,
      ran: true,
      stdout: run.stdout,
      stderr: run.stderr || (failed && !run.structured ? out.trim() : ""),
      exitCode: run.exitCode,
      failed,
    };
  }
  const url = urlArgument(argumentsText);
  const query = queryArgument(argumentsText);
  const hits = searchHits(out);
  const listsResults = hits.some((hit) => hit.url !== "");
  if (query !== null && (namedAsSearch(name) || (listsResults && url === null))) {
    return {
      kind: "search",
      query,
      hits,
      failed: hits.length === 0 && /^Error|No results/i.test(out.trim()),
    };
  }
  if (url !== null) {
    const failed = output === null || /^Error\b|^HTTP \d{3}|Status: [45]\d\d/.test(out.trim());
    const text = pageText(out);
    return { kind: "page", url, text, date: failed ? null : pageDate(text, url), failed };
  }
  return { kind: "tool", name, arguments: argumentsText, output: out };
}

/** Everything the critic can read off one rendered trajectory. */
export function readTrajectory(rendered: string): TrajectoryEvidence {
  const blocks = blocksOf(rendered);
  const events: EvidenceEvent[] = [];
  const pending: { call: Block; index: number }[] = [];
  const assistantTexts: string[] = [];
  let problem: string | null = null;
  let shownText = "";
  let rendererFinal: string | null = null;

  const settle = (call: Block, output: string | null) => events.push(eventOf(call, output));

  for (const block of blocks) {
    const text = block.lines.join("\n").trim();
    switch (block.kind) {
      case "problem":
      case "user":
        if (problem === null && text !== "") problem = text;
        break;
      case "system":
        shownText += `\n${text}`;
        break;
      case "assistant":
        // Calls still waiting for an output when a new message starts never got one.
        while (pending.length > 0) settle(pending.shift()!.call, null);
        assistantTexts.push(text);
        break;
      case "call":
        pending.push({ call: block, index: events.length });
        break;
      case "output": {
        const call = pending.shift();
        if (call) settle(call.call, text);
        break;
      }
      case "meta": {
        const final = /^Final answer: (.*)$/m.exec(text);
        if (final && !final[1]!.includes("\\boxed")) rendererFinal = final[1]!.trim();
        break;
      }
    }
  }
  while (pending.length > 0) settle(pending.shift()!.call, null);

  // Code written in a message without being run (direct mode): evidence of the method, not of a result.
  const lastMessage = assistantTexts.at(-1) ?? "";
  for (const code of pythonBlocks(lastMessage))
    events.push({ kind: "code", code, ran: false, stdout: "", stderr: "", exitCode: null, failed: false });

  let finalAnswer: string | null = null;
  for (let i = assistantTexts.length - 1; i >= 0 && finalAnswer === null; i--)
    finalAnswer = lastBoxed(assistantTexts[i]!);
  if (finalAnswer === null && rendererFinal !== null && rendererFinal !== "(none)")
    finalAnswer = rendererFinal;

  const cited = [...new Set(assistantTexts.flatMap((t) => [...t.matchAll(/\[(G\d+)\]/g)].map((m) => m[1]!)))];
  const shown = parseExperienceLines(shownText)
    .map((line) => line.id)
    .filter((id) => id.startsWith("G"));
  return { problem, shown, events, finalAnswer, cited };
}
