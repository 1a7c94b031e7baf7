import { suspectCode } from "./code-contrast.js";
import { codeView } from "./python-idioms.js";
import { joinCodeLines, keyLines } from "./python-source.js";
import type {
  CodeEvidence,
  OtherToolEvidence,
  PageEvidence,
  SearchEvidence,
  TrajectoryEvidence,
} from "./trajectory-evidence.js";
import { conversionFactor, numericValue, quantitiesIn, sameNumber } from "./units.js";
import { suspectWeb, type WebSourceView, type WebView } from "./web-evidence.js";

/**
 * Stage 1 of the critic: one `Step N: ...` line per step of a trajectory, carrying the evidence stage 2 will need,
 * since stage 2 sees only these summaries: the code that ran (normalised: no comments, no imports) and what it
 * printed, the searches and the dates of their results, the pages opened, where the answer's value was read and in
 * which unit, and the final answer against the ground truth. A failed attempt's suspicious steps are marked
 * `ERROR -` from the critic's own reading of the code and pages; prose is not evidence and is not summarised.
 */

/** `http://127.0.0.1:8080/corpus/www.site.example/about` -> `www.site.example/about` (a local proxy's prefix dropped). */
export function shortUrl(url: string): string {
  const bare = url.replace(/^https?:\/\//, "");
  const parts = bare.split("/");
  if (/^(?:\d+(?:\.\d+){3}|localhost)(?::\d+)?$/.test(parts[0] ?? "")) {
    for (let i = 1; i < Math.min(parts.length, 4); i++)
      if (/^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$/i.test(parts[i]!)) return parts.slice(i).join("/");
  }
  return bare;
}

function lastLine(text: string): string | null {
  return (
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? null
  );
}

function codeStep(event: CodeEvidence): string {
  const lines = keyLines(event.code);
  const body = lines.length > 0 ? joinCodeLines(lines) : "(an empty program)";
  if (!event.ran) return `Wrote code without running it: ${body}`;
  if (event.failed) {
    const reason =
      lastLine(event.stderr) ?? (event.exitCode !== null ? `exit code ${event.exitCode}` : "no result");
    return `Ran code: ${body} -> failed: ${reason}`;
  }
  const printed = lastLine(event.stdout);
  return `Ran code: ${body} -> ${printed === null ? "printed nothing" : `printed ${printed}`}`;
}

function searchStep(event: SearchEvidence): string {
  if (event.hits.length === 0) return `Searched the web for "${event.query}"; no results.`;
  const listed = event.hits
    .slice(0, 6)
    .map((hit) => `${hit.rank}) ${shortUrl(hit.url)}${hit.date ? ` [${hit.date}]` : ""}`)
    .join("; ");
  return `Searched the web for "${event.query}"; results: ${listed}.`;
}

function pageStep(event: PageEvidence): string {
  if (event.failed) return `Tried to open ${shortUrl(event.url)}; it did not load.`;
  return `Opened ${shortUrl(event.url)}${event.date ? ` [published ${event.date}]` : ""}.`;
}

const knownUnits = [
  "km²",
  "hectares",
  "m²",
  "tonnes",
  "kg",
  "grams",
  "days",
  "hours",
  "minutes",
  "seconds",
  "km",
  "metres",
  "cm",
  "litres",
  "ml",
];

type Source = WebSourceView & { rank?: number; target?: string };

interface ValueMatch {
  value: string;
  unit: string | null;
  factor: number | null;
  target?: string;
}

/** The answer's value among the quantities of a text: as written, or a unit conversion of one of them. */
function matchValue(text: string, answer: string): ValueMatch | null {
  const wanted = numericValue(answer);
  if (wanted === null) {
    const plain = answer.trim().toLowerCase();
    return plain.length > 2 && text.toLowerCase().includes(plain)
      ? { value: answer.trim(), unit: null, factor: null }
      : null;
  }
  const quantities = quantitiesIn(text);
  const same =
    quantities.find((q) => sameNumber(q.value, wanted) && q.unit !== null) ??
    quantities.find((q) => sameNumber(q.value, wanted));
  if (same) return { value: same.text, unit: same.unit, factor: null };
  for (const q of quantities) {
    if (q.unit === null) continue;
    for (const target of knownUnits) {
      const factor = conversionFactor(q.unit, target);
      if (factor !== null && factor !== 1 && sameNumber(q.value * factor, wanted))
        return { value: q.text, unit: q.unit, factor, target };
    }
  }
  return null;
}

/** Where the answer's value appears: a page opened (maybe converted), else a search snippet. */
function findSource(answer: string | null, pages: PageEvidence[], searches: SearchEvidence[]): Source | null {
  if (answer === null) return null;
  for (const page of [...pages].reverse()) {
    if (page.failed) continue;
    const found = matchValue(page.text, answer);
    if (found) return { kind: "page", url: page.url, date: page.date, ...found };
  }
  for (const search of searches)
    for (const hit of search.hits) {
      const found = matchValue(`${hit.title}\n${hit.snippet}`, answer);
      if (found) return { kind: "snippet", url: hit.url, date: hit.date, rank: hit.rank, ...found };
    }
  return null;
}

function sourceStep(source: Source): string {
  const value = `${source.value}${source.unit ? ` ${source.unit}` : ""}`;
  const converted =
    source.factor !== null
      ? ` and converted it × ${Number(source.factor.toPrecision(6))} to ${source.target}`
      : "";
  if (source.kind === "snippet")
    return `Took the value ${value} from the snippet of search result ${source.rank ?? "?"} (${shortUrl(source.url)}${source.date ? `, dated ${source.date}` : ""})${converted} without opening any page.`;
  return `Took the value ${value} from ${shortUrl(source.url)}${source.date ? ` [published ${source.date}]` : ""}${converted}.`;
}

export interface SummaryInput {
  evidence: TrajectoryEvidence;
  evaluation: string;
  groundTruth: string | null;
}

/** The stage-1 summary of one trajectory. */
/** A team's own tool: its call in one line, and whether it refused (its answer began with "Error"). */
function toolStep(event: OtherToolEvidence): string {
  const args = event.arguments.replace(/\s+/g, " ").trim().slice(0, 200);
  const refused = /^Error\b/.test(event.output.trim());
  const said = event.output
    .trim()
    .split("\n")[0]!
    .replace(/^Error:\s*/, "")
    .slice(0, 120);
  return refused
    ? `Called ${event.name} with ${args}; it refused: ${said}.`
    : `Called ${event.name} with ${args}; it answered.`;
}

export function writeSummary({ evidence, evaluation, groundTruth }: SummaryInput): string {
  const verdict = evaluation.trim().toLowerCase();
  const correct = verdict.startsWith("correct") || verdict === "pass";
  const truth = groundTruth ?? "unknown";
  const problem = evidence.problem ?? "";
  const steps: string[] = [
    evidence.shown.length > 0
      ? `Read the problem; experiences in the prompt: ${evidence.shown.map((id) => `[${id}]`).join(", ")}.`
      : "Read the problem; no experiences in the prompt.",
  ];
  const errors: string[] = [];
  let lastCode: { event: CodeEvidence; at: number } | null = null;
  const pages: PageEvidence[] = [];
  const searches: SearchEvidence[] = [];

  for (const event of evidence.events) {
    if (event.kind === "code") {
      steps.push(codeStep(event));
      if (!event.failed) lastCode = { event, at: steps.length };
    } else if (event.kind === "search") {
      steps.push(searchStep(event));
      searches.push(event);
    } else if (event.kind === "page") {
      steps.push(pageStep(event));
      pages.push(event);
    } else steps.push(toolStep(event));
  }

  const flagsAt = new Map<number, string[]>();
  const flag = (at: number, text: string) => flagsAt.set(at, [...(flagsAt.get(at) ?? []), text]);
  const answer = evidence.finalAnswer;

  if (!correct && lastCode) {
    const printed = lastCode.event.ran ? lastLine(lastCode.event.stdout) : null;
    for (const hit of suspectCode(codeView(keyLines(lastCode.event.code), printed), problem))
      flag(lastCode.at, hit.idiom.flag(hit.match));
    if (printed !== null && answer !== null && printed !== answer.trim()) {
      const a = numericValue(answer);
      const p = numericValue(printed);
      if (a === null || p === null || !sameNumber(a, p))
        flag(lastCode.at, `the final answer ${answer} is not what the code printed (${printed})`);
    }
  }
  if (!correct && evidence.events.length > 0 && evidence.events.every((e) => e.kind === "code" && e.failed))
    errors.push("the code never ran cleanly, so the answer rests on no computation");

  if (searches.length > 0 || pages.length > 0) {
    const source = findSource(answer, pages, searches);
    if (source) steps.push(sourceStep(source));
    else if (answer !== null)
      steps.push("The final answer does not appear on any page or snippet that was read.");
    if (!correct) {
      const view: WebView = {
        searched: searches.length > 0,
        hits: searches.flatMap((s) => s.hits.map((h) => ({ url: h.url, date: h.date }))),
        pages: pages.map((p) => ({ url: p.url, date: p.date, failed: p.failed })),
        source,
        answer,
      };
      for (const hit of suspectWeb(view, problem)) flag(steps.length, hit.flag);
    }
  }

  const lines: string[] = [];
  steps.forEach((step, index) => {
    lines.push(step);
    for (const text of flagsAt.get(index + 1) ?? []) lines.push(`ERROR - ${text}.`);
  });
  for (const text of errors) lines.push(`ERROR - ${text}.`);
  const cites =
    evidence.cited.length > 0 ? `, citing ${evidence.cited.map((id) => `[${id}]`).join(", ")}` : "";
  const flagged = lines.some((line) => line.startsWith("ERROR"));
  if (answer === null) lines.push(`ERROR - gave no final answer in \\boxed{}; the ground truth is ${truth}.`);
  else if (correct)
    lines.push(`Gave the final answer ${answer}${cites}; it matches the ground truth ${truth}.`);
  else if (flagged) lines.push(`Gave the final answer ${answer}${cites}; the ground truth is ${truth}.`);
  else
    lines.push(
      `ERROR - gave the final answer ${answer}${cites}, but the ground truth is ${truth}; the steps do not show the cause.`,
    );
  return lines.map((line, index) => `Step ${index + 1}: ${line}`).join("\n");
}
