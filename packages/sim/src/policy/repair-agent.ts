import type { FallProbabilities } from "../behaviour.js";
import { type ChatRequest, messageText } from "../chat-request.js";
import { fallProbability, type PitfallReading } from "../experience-reading.js";
import { hexFrom, unitFrom } from "../hash.js";
import type { Pitfall } from "../pitfalls/pitfall.js";
import {
  baseCaseMissed,
  offByOneFix,
  operatorDirection,
  patchSymptom,
  stopAfterVisible,
  wrongLine,
} from "../pitfalls/repair-pitfalls.js";
import type { ExperienceLine } from "../text/experience-lines.js";
import { codeLines, type DefectKind, type RepairCandidate, repairCandidates } from "./repair-candidates.js";

/**
 * The simulated repair agent (SIMULATED): reads the defective program in its task, runs the visible tests, guesses
 * the KIND of defect from what failed and how (an endless loop or recursion: a base case or a bound; an index error:
 * an off-by-one; a wrong output: swapped operands, a comparison, a wrong variable), and tries edits of that kind one
 * at a time through the workspace tools (write the file, run the visible tests), checking the docstring's example
 * before it answers. It knows no corrected program. The traps of `repair-pitfalls.ts` that apply to the program change
 * what it tries (a special case for the failing inputs, only the line the failure surfaces on, one direction of an
 * off-by-one, a comparison flipped instead of made strict, no base case) or when it stops (the visible tests only),
 * unless a lesson in the prompt addresses it, read by meaning.
 */

export const repairFall: FallProbabilities = {
  none: 0.55,
  helps: 0.08,
  neutral: 0.45,
  hurts: 0.9,
  conflict: 0.4,
};

/** Candidates the agent tries at most (two tool calls each: write, test). */
export const repairBudget = 10;

export interface RepairInstance {
  name: string;
  source: string;
}

/** A repair task as its question states it: the program's name and its code block. */
export function recognizeRepairQuestion(question: string): RepairInstance | null {
  const name = /Repair the Python program `(\w+)\.py`/.exec(question)?.[1];
  const block = /```python\n([\s\S]*?)\n```/.exec(question)?.[1];
  return name && block ? { name, source: `${block}\n` } : null;
}

export interface RepairTurn {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
}

export interface RepairAgentContext {
  seed: number;
  requestSeed: string;
  lines: readonly ExperienceLine[];
  reading: (pitfall: Pitfall, lines: readonly ExperienceLine[]) => PitfallReading;
}

interface Exchange {
  name: string;
  arguments: string;
  output: string | null;
}

function exchangesOf(request: ChatRequest): Exchange[] {
  const byId = new Map<string, Exchange>();
  const out: Exchange[] = [];
  for (const message of request.messages) {
    if (message.role === "assistant" && message.tool_calls) {
      for (const call of message.tool_calls) {
        const exchange = { name: call.function.name, arguments: call.function.arguments, output: null };
        byId.set(call.id, exchange);
        out.push(exchange);
      }
    } else if (message.role === "tool" && message.tool_call_id) {
      const exchange = byId.get(message.tool_call_id);
      if (exchange) exchange.output = messageText(message);
    }
  }
  return out;
}

/** What a run of the visible tests showed: the counts and each failure's kind, line and inputs. */
interface TestReport {
  passed: number;
  total: number;
  timeouts: number;
  recursion: boolean;
  exceptions: string[];
  /** Lines (0-based) the failures surfaced on. */
  lines: number[];
  /** Wrong outputs with their inputs and expected values, as printed. */
  wrong: { inputs: string; expected: string }[];
}

function readTests(output: string | null): TestReport | null {
  const head = output ? /tests: (\d+)\/(\d+) passed/.exec(output) : null;
  if (!output || !head) return null;
  const report: TestReport = {
    passed: Number(head[1]),
    total: Number(head[2]),
    timeouts: (output.match(/^TIMEOUT /gm) ?? []).length,
    recursion: /RecursionError/.test(output),
    exceptions: [...output.matchAll(/^ERROR [^:]+: (\w+)/gm)].map((match) => match[1]!),
    lines: [...output.matchAll(/\.py line (\d+)\)/g)].map((match) => Number(match[1]) - 1),
    wrong: [...output.matchAll(/^FAIL [^:]+: wrong output for (.+): got .+, expected (.+)$/gm)].map(
      (match) => ({
        inputs: match[1]!,
        expected: match[2]!,
      }),
    ),
  };
  return report;
}

/** The kinds of defect, most likely first, from how the visible tests failed. */
function kindsFor(report: TestReport): DefectKind[] {
  if (report.timeouts > 0 || report.recursion)
    return ["base-case", "comparison", "off-by-one", "swap", "variable"];
  if (report.exceptions.length > 0) return ["off-by-one", "base-case", "comparison", "swap", "variable"];
  return ["swap", "comparison", "off-by-one", "variable", "base-case"];
}

const styleRank: Record<string, number> = {
  strict: 0,
  flip: 1,
  remove: 0,
  subtract: 1,
  add: 2,
  arguments: 0,
  operands: 1,
  guard: 0,
  loop: 0,
  bound: 1,
  result: 2,
  name: 0,
};

/** The docstring's example: `>>> name(args)` and the value printed under it. */
function docstringExample(source: string, name: string): { call: string; expected: string } | null {
  const match = new RegExp(`>>> (${name}\\(.*\\))\\s*\\n\\s*(\\S.*)`).exec(source);
  return match ? { call: match[1]!, expected: match[2]!.trim() } : null;
}

/** The symptom patch: the failing inputs answered by a special case at the top of the function. */
function symptomPatch(source: string, name: string, wrong: TestReport["wrong"]): string | null {
  const lines = source.split("\n");
  const def = lines.findIndex((line) => new RegExp(`^def ${name}\\(`).test(line));
  const params = def >= 0 ? /\((.*)\)/.exec(lines[def]!)?.[1] : undefined;
  if (def < 0 || !params || wrong.length === 0) return null;
  const names = params.split(",").map((part) => part.split("=")[0]!.trim());
  const patch = wrong.map(
    (entry) => `    if [${names.join(", ")}] == ${entry.inputs}:\n        return ${entry.expected}`,
  );
  return [...lines.slice(0, def + 1), ...patch, ...lines.slice(def + 1)].join("\n");
}

/** One turn of the repair agent on `instance`. */
export function respondRepair(
  instance: RepairInstance,
  request: ChatRequest,
  ctx: RepairAgentContext,
): RepairTurn {
  const exchanges = exchangesOf(request);
  const cited = new Set<string>();
  const falls = (pitfall: Pitfall): boolean => {
    const read = ctx.reading(pitfall, ctx.lines);
    const fallen =
      unitFrom("repair-fall", ctx.seed, ctx.requestSeed, instance.name, pitfall.id) <
      fallProbability(repairFall, read);
    for (const id of fallen ? read.hurting.slice(0, 1) : read.helping.slice(0, 2)) cited.add(id);
    return fallen;
  };
  const call = (name: string, args: Record<string, unknown>, label: string) => ({
    id: `call_sim_${hexFrom(20, ctx.seed, ctx.requestSeed, instance.name, exchanges.length, label)}`,
    name,
    arguments: JSON.stringify(args),
  });
  const citedLine = () =>
    cited.size > 0 ? `\n(Experiences applied: ${[...cited].map((id) => `[${id}]`).join(", ")}.)` : "";

  const tests = exchanges.filter((exchange) => exchange.name === "run_tests");
  if (tests.length === 0) {
    return { content: "Running the visible tests first.", toolCalls: [call("run_tests", {}, "baseline")] };
  }
  const baseline = readTests(tests[0]!.output);
  if (!baseline) {
    return {
      content: `The tests could not run, so I leave the program as it is.${citedLine()}\n\\boxed{no change}`,
      toolCalls: [],
    };
  }

  // The plan, decided again identically at every turn: the traps that apply, then the edits in order.
  const code = codeLines(instance.source);
  const hasComparison = code.some((line) => /[<>]/.test(line.replace(/#.*$/, "")));
  const hasIndex = code.some((line) => /\[[^\]]+\]|range\(|[+-] 1\b/.test(line));
  const loopsOrRecurses =
    code.some((line) => /^\s*while\b/.test(line)) ||
    code.slice(1).some((line) => new RegExp(`\\b${instance.name}\\(`).test(line));
  const fallenSymptom = baseline.wrong.length > 0 && falls(patchSymptom);
  const fallenLine = falls(wrongLine);
  const fallenOffByOne = hasIndex && falls(offByOneFix);
  const fallenDirection = hasComparison && falls(operatorDirection);
  const fallenBase = loopsOrRecurses && falls(baseCaseMissed);
  const fallenStop = falls(stopAfterVisible);

  const kinds = kindsFor(baseline).filter((kind) => !(fallenBase && kind === "base-case"));
  const surface =
    baseline.lines.at(-1) ??
    code.reduce((last, line, index) => (/^\s*return\b/.test(line) ? index : last), code.length - 1);
  const allowed = (candidate: RepairCandidate) =>
    kinds.includes(candidate.kind) &&
    !(fallenLine && candidate.line !== surface) &&
    !(fallenOffByOne && candidate.kind === "off-by-one" && candidate.style !== "add") &&
    !(fallenDirection && candidate.kind === "comparison" && candidate.style === "strict");
  const near = (line: number) =>
    baseline.lines.length > 0 ? Math.min(...baseline.lines.map((at) => Math.abs(at - line))) : 0;
  const byKind = kinds.map((kind) =>
    repairCandidates(instance.source)
      .filter((candidate) => candidate.kind === kind && allowed(candidate))
      .sort(
        (a, b) =>
          near(a.line) - near(b.line) ||
          (styleRank[a.style] ?? 3) - (styleRank[b.style] ?? 3) ||
          a.line - b.line,
      ),
  );
  const plan: { file: string; what: string; summary: string }[] = [];
  const patched = fallenSymptom ? symptomPatch(instance.source, instance.name, baseline.wrong) : null;
  if (patched) {
    plan.push({
      file: patched,
      what: "returned the expected values for the failing inputs",
      summary: "special cases for the failing inputs",
    });
  }
  for (let round = 0; plan.length < repairBudget && byKind.some((list) => list.length > round); round++) {
    for (const list of byKind) {
      const candidate = list[round];
      if (candidate && plan.length < repairBudget) {
        plan.push({
          file: candidate.file,
          what: `line ${candidate.line + 1}: \`${candidate.before.trim()}\` -> \`${candidate.file.split("\n")[candidate.line]!.trim()}\``,
          summary: `changed line ${candidate.line + 1} (${candidate.kind})`,
        });
      }
    }
  }

  const writes = exchanges.filter((exchange) => exchange.name === "write_file");
  const example = docstringExample(instance.source, instance.name);
  const last = exchanges.at(-1);
  if (writes.length > 0) {
    const tried = plan[writes.length - 1];
    const report = readTests(tests.at(-1)!.output);
    const allPass = report !== null && report.total > 0 && report.passed === report.total;
    if (allPass && tried) {
      if (fallenStop || !example) {
        return {
          content: `Fixed: ${tried.what}. The visible tests pass.${citedLine()}\n\\boxed{${tried.summary}}`,
          toolCalls: [],
        };
      }
      if (last?.name !== "run_python") {
        const check = [
          `from ${instance.name} import ${instance.name}`,
          `result = ${example.call}`,
          "result = list(result) if hasattr(result, '__next__') else result",
          `print('EXAMPLE-OK' if ' '.join(repr(result).split()) == ${JSON.stringify(example.expected.split(/\s+/).join(" "))} else 'EXAMPLE-DIFFERS ' + repr(result))`,
        ].join("\n");
        return {
          content: "The visible tests pass; checking the docstring's example too.",
          toolCalls: [call("run_python", { code: check }, "example")],
        };
      }
      if (last.output?.includes("EXAMPLE-OK")) {
        return {
          content: `Fixed: ${tried.what}. The visible tests and the docstring's example pass.${citedLine()}\n\\boxed{${tried.summary}}`,
          toolCalls: [],
        };
      }
    }
  }
  const next = plan[writes.length];
  if (!next) {
    return {
      content: `I could not find a fix that passes the visible tests; the file holds my last attempt.${citedLine()}\n\\boxed{no fix found}`,
      toolCalls: [],
    };
  }
  return {
    content: `Trying an edit: ${next.what}.`,
    toolCalls: [call("write_file", { content: next.file }, "write"), call("run_tests", {}, "test")],
  };
}
