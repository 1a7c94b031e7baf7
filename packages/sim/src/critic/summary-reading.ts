import { type CodeView, codeView } from "./python-idioms.js";
import { splitCodeLines } from "./python-source.js";
import type { ToolStepView } from "./tool-contrast.js";
import { unitAt } from "./units.js";
import type { WebSourceView, WebView } from "./web-evidence.js";

/**
 * Stage 2 of the critic reads the stage-1 summaries (it never sees the raw trajectories): the code each attempt
 * ran, the web steps, where the answer came from, the final answer and the ids it cited.
 */

export interface AttemptEvidence {
  /** 1-based, as in `<attempt index="...">`. */
  index: number;
  reward: number;
  summary: string;
  /** The program that produced the answer (the last one that ran cleanly, else the last one written). */
  code: CodeView | null;
  codeRan: boolean;
  web: WebView;
  answer: string | null;
  cited: string[];
  shown: string[];
  errors: string[];
  /** Calls of a team's own tools (neither code nor web), in order. */
  tools: ToolStepView[];
}

function valueAndUnit(text: string): { value: string; unit: string | null } {
  const m = /^(\S+)(?:\s+(.+))?$/.exec(text.trim());
  if (!m) return { value: text.trim(), unit: null };
  const unit = m[2] ? unitAt(m[2]) : null;
  return unit ? { value: m[1]!, unit } : { value: text.trim(), unit: null };
}

/** One attempt's evidence, from its summary. */
export function readSummary(index: number, reward: number, summary: string): AttemptEvidence {
  const web: WebView = { searched: false, hits: [], pages: [], source: null, answer: null };
  const errors: string[] = [];
  const tools: ToolStepView[] = [];
  const read: {
    lastRun: CodeView | null;
    lastWritten: CodeView | null;
    answer: string | null;
    cited: string[];
    shown: string[];
  } = { lastRun: null, lastWritten: null, answer: null, cited: [], shown: [] };

  const readers: [RegExp, (m: RegExpExecArray, line: string) => void][] = [
    [
      /^Ran code: (.*) -> (?:printed (.*)|printed nothing|failed: .*)$/,
      (m, line) => {
        if (!/-> failed: /.test(line)) read.lastRun = codeView(splitCodeLines(m[1]!), m[2]?.trim() ?? null);
      },
    ],
    [
      /^Wrote code without running it: (.*)$/,
      (m) => {
        read.lastWritten = codeView(splitCodeLines(m[1]!));
      },
    ],
    [
      /^Searched the web for "(.*)"; (?:results: (.*)|no results\.)$/,
      (m) => {
        web.searched = true;
        for (const hit of (m[2] ?? "").matchAll(/(\d+)\) (\S+?)(?: \[([\d-]+)\])?(?:;|\.$|$)/g))
          web.hits.push({ url: hit[2]!, date: hit[3] ?? null });
      },
    ],
    [
      /^Opened (\S+?)(?: \[published ([\d-]+)\])?\.$/,
      (m) => web.pages.push({ url: m[1]!, date: m[2] ?? null, failed: false }),
    ],
    [/^Tried to open (\S+?);/, (m) => web.pages.push({ url: m[1]!, date: null, failed: true })],
    [
      /^Took the value (.+?) from the snippet of search result (\S+) \((\S+?)(?:, dated ([\d-]+))?\)(?: and converted it × ([\d.e+-]+) to (\S+))? without opening any page\.$/,
      (m) => {
        const { value, unit } = valueAndUnit(m[1]!);
        const factor = m[5] ? Number(m[5]) : null;
        web.source = { kind: "snippet", url: m[3]!, date: m[4] ?? null, value, unit, factor };
      },
    ],
    [
      /^Took the value (.+?) from (\S+?)(?: \[published ([\d-]+)\])?(?: and converted it × ([\d.e+-]+) to (\S+))?\.$/,
      (m) => {
        const { value, unit } = valueAndUnit(m[1]!);
        const source: WebSourceView = {
          kind: "page",
          url: m[2]!,
          date: m[3] ?? null,
          value,
          unit,
          factor: m[4] ? Number(m[4]) : null,
        };
        web.source = source;
      },
    ],
    [
      /^(?:ERROR - )?gave the final answer (.+?)(?:, citing ((?:\[G\d+\](?:, )?)+))?(?:;|, but|\.$)/i,
      (m, line) => {
        read.answer = m[1]!.trim();
        read.cited = [...(m[2] ?? "").matchAll(/\[(G\d+)\]/g)].map((c) => c[1]!);
        if (/^ERROR/.test(line)) errors.push(line);
      },
    ],
    [
      /experiences in the prompt: (.*)$/,
      (m) => {
        read.shown = [...m[1]!.matchAll(/\[(G\d+)\]/g)].map((c) => c[1]!);
      },
    ],
    [
      /^Called ([\w.-]+) with (.*); it (refused: .*|answered)\.$/,
      (m) => {
        let args: Record<string, unknown> = {};
        try {
          const parsed = JSON.parse(m[2]!) as unknown;
          if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
            args = parsed as Record<string, unknown>;
        } catch {
          // Arguments that are not JSON still name the call.
        }
        tools.push({ name: m[1]!, args, refused: m[3]!.startsWith("refused") });
      },
    ],
    [/^ERROR\b/, (_, line) => errors.push(line)],
  ];

  for (const raw of summary.split(/\r?\n/)) {
    const line = raw.replace(/^\s*Step \d+:\s*/, "").trim();
    if (line === "") continue;
    for (const [pattern, handle] of readers) {
      const m = pattern.exec(line);
      if (m) {
        handle(m, line);
        break;
      }
    }
  }
  web.answer = read.answer;
  return {
    index,
    reward,
    summary,
    code: read.lastRun ?? read.lastWritten,
    codeRan: read.lastRun !== null,
    web,
    answer: read.answer,
    cited: read.cited,
    shown: read.shown,
    errors,
    tools,
  };
}

/** `<attempt index reward>` blocks of a stage-2 prompt. */
export function readAttempts(trajectories: string): AttemptEvidence[] {
  return [...trajectories.matchAll(/<attempt\b([^>]*)>([\s\S]*?)<\/attempt>/g)].map((m, i) => {
    const reward = Number(/reward="([-\d.eE+]+)"/.exec(m[1]!)?.[1] ?? "0");
    const index = Number(/index="(\d+)"/.exec(m[1]!)?.[1] ?? i + 1);
    return readSummary(index, Number.isFinite(reward) ? reward : 0, m[2]!.trim());
  });
}
