import type { FallProbabilities } from "../behaviour.js";
import { type ChatRequest, messageText } from "../chat-request.js";
import { fallProbability, type PitfallReading } from "../experience-reading.js";
import { hexFrom, unitFrom } from "../hash.js";
import type { Pitfall } from "../pitfalls/pitfall.js";
import {
  baseCaseMissed,
  changeOnly,
  offByOneFix,
  operatorDirection,
  patchSymptom,
  stopAfterVisible,
  wrongLine,
} from "../pitfalls/repair-pitfalls.js";
import type { ExperienceLine } from "../text/experience-lines.js";
import { codeLines } from "./repair/python-text.js";
import { repairCandidates } from "./repair/repair-candidates.js";
import { planRepair, type RepairSlips } from "./repair/repair-plan.js";
import { readTestReport } from "./repair/test-report.js";

/**
 * The simulated repair agent (SIMULATED): reads the defective program in its task, runs the visible tests, and tries
 * edits one at a time through the workspace tools (write the file, run the visible tests), checking the docstring's
 * example before it answers. Its edits come from `repair/`: one finder per KIND of defect (the QuixBugs paper's
 * classes: an off-by-one, a comparison, an arithmetic operator, swapped arguments, a wrong variable, a base case, a
 * data structure constant, a field, a return value, a call, a slice, a missing term, a missing line), each reading
 * the program's text alone, ordered by the code's smells and by how the visible tests failed (`repair-plan.ts`). It
 * knows no corrected program and no program by name: on a program it has never seen it works the same way.
 *
 * The traps of `repair-pitfalls.ts` that apply to the program change what it tries (a special case for the failing
 * inputs, only the line the failure surfaces on, one direction of an off-by-one, a comparison flipped instead of made
 * strict, no base case, only changing what is there and never adding what is missing) or when it stops (the visible
 * tests only), unless a lesson in the prompt addresses it, read by meaning.
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

/** The docstring's example: `>>> name(args)` and the value printed under it. */
function docstringExample(source: string, name: string): { call: string; expected: string } | null {
  const match = new RegExp(`>>> (${name}\\(.*\\))\\s*\\n\\s*(\\S.*)`).exec(source);
  return match ? { call: match[1]!, expected: match[2]!.trim() } : null;
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
  const baseline = readTestReport(tests[0]!.output);
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
  const slips: RepairSlips = {
    symptom: baseline.wrong.length > 0 && falls(patchSymptom),
    sameLine: falls(wrongLine),
    plusOne: hasIndex && falls(offByOneFix),
    reverse: hasComparison && falls(operatorDirection),
    noBaseCase: loopsOrRecurses && falls(baseCaseMissed),
    changeOnly: repairCandidates(instance.source, instance.name).some((c) => c.adds) && falls(changeOnly),
  };
  const fallenStop = falls(stopAfterVisible);
  const plan = planRepair(instance.source, instance.name, baseline, slips, repairBudget);

  const writes = exchanges.filter((exchange) => exchange.name === "write_file");
  const example = docstringExample(instance.source, instance.name);
  const last = exchanges.at(-1);
  if (writes.length > 0) {
    const tried = plan[writes.length - 1];
    const report = readTestReport(tests.at(-1)!.output);
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
