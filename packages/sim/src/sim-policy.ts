import type { ActorTurn, SimToolCall, ToolExchange } from "./actor-turn.js";
import type { PolicyBehaviour, SimNoise } from "./behaviour.js";
import { type ChatRequest, firstUserText, messageText, systemText, toolNames } from "./chat-request.js";
import { fallProbability, type PitfallReading, readPitfall } from "./experience-reading.js";
import { hexFrom, unitFrom } from "./hash.js";
import type { Pitfall } from "./pitfalls/pitfall.js";
import { assigneeByName } from "./pitfalls/tickets-pitfalls.js";
import { recognizeRepairQuestion, respondRepair } from "./policy/repair-agent.js";
import { respondRetail } from "./policy/retail-agent.js";
import { respondTickets } from "./policy/tickets-policy.js";
import { readableText, readProgramOutput } from "./policy/tool-output.js";
import { recognizeToolRoles, type ToolRoles } from "./policy/tool-roles.js";
import type { MathInstance } from "./suites/math.js";
import { recognizeRetailConversation } from "./suites/retail-tasks.js";
import { scaleDecimal, type WebInstance, type WebSource } from "./suites/web.js";
import { type ExperienceLine, parseExperienceLines } from "./text/experience-lines.js";
import type { SimWorld } from "./world.js";

export type { ActorTurn, SimToolCall, ToolExchange } from "./actor-turn.js";

interface Decision {
  pitfall: Pitfall;
  reading: PitfallReading;
  fallen: boolean;
  /** Ids the policy says it applied for this pitfall. */
  cited: string[];
}

export interface SimPolicyOptions {
  seed: number;
  world: SimWorld;
  behaviour: PolicyBehaviour;
  noise: SimNoise;
}

export interface SimPolicy {
  respond(request: ChatRequest): ActorTurn;
}

function exchangesOf(request: ChatRequest): ToolExchange[] {
  const byId = new Map<string, ToolExchange>();
  const ordered: ToolExchange[] = [];
  for (const message of request.messages) {
    if (message.role === "assistant" && message.tool_calls) {
      for (const call of message.tool_calls) {
        const exchange = { name: call.function.name, arguments: call.function.arguments, output: null };
        byId.set(call.id, exchange);
        ordered.push(exchange);
      }
    } else if (message.role === "tool" && message.tool_call_id) {
      const exchange = byId.get(message.tool_call_id);
      if (exchange) exchange.output = messageText(message);
    }
  }
  return ordered;
}

function citedLine(decisions: readonly Decision[]): string {
  const ids = [...new Set(decisions.flatMap((d) => d.cited))];
  return ids.length > 0 ? `Experiences applied: ${ids.map((id) => `[${id}]`).join(", ")}.\n` : "";
}

function slip(value: string, unit: number): string {
  const fraction = /^(-?\d+)\/(\d+)$/.exec(value);
  if (fraction) return `${Number(fraction[1]) + 1}/${fraction[2]}`;
  if (/^-?\d+$/.test(value)) return String(Number(value) + (unit < 0.5 ? 1 : -1));
  return value;
}

export function createSimPolicy(options: SimPolicyOptions): SimPolicy {
  const { seed, world, behaviour, noise } = options;
  // All rollouts of a library version share one system prompt: parse it and read its lines once.
  const linesBySystem = new Map<string, ExperienceLine[]>();
  const readings = new WeakMap<readonly ExperienceLine[], Map<string, PitfallReading>>();

  function linesOf(system: string): ExperienceLine[] {
    let lines = linesBySystem.get(system);
    if (!lines) {
      if (linesBySystem.size >= 256) linesBySystem.delete(linesBySystem.keys().next().value!);
      lines = parseExperienceLines(system).filter((line) => line.id.startsWith("G"));
      linesBySystem.set(system, lines);
    }
    return lines;
  }

  function reading(pitfall: Pitfall, lines: readonly ExperienceLine[]): PitfallReading {
    let byPitfall = readings.get(lines);
    if (!byPitfall) {
      byPitfall = new Map();
      readings.set(lines, byPitfall);
    }
    let out = byPitfall.get(pitfall.id);
    if (!out) {
      out = readPitfall(pitfall, lines);
      byPitfall.set(pitfall.id, out);
    }
    return out;
  }

  function decide(
    pitfalls: readonly Pitfall[],
    lines: readonly ExperienceLine[],
    question: string,
    requestSeed: string,
    direct: boolean,
  ): Decision[] {
    return pitfalls.map((pitfall) => {
      const read = reading(pitfall, lines);
      const probability = fallProbability(direct ? behaviour.directFall : behaviour.fall, read);
      // One draw per (seed, request seed, question, pitfall) shared by every status, so adding a helpful lesson
      // can only remove mistakes for a given seed: paired comparisons stay clean.
      const fallen = unitFrom("fall", seed, requestSeed, question, pitfall.id) < probability;
      const cited = fallen
        ? read.hurting.slice(0, 1)
        : [...read.helping.slice(0, 2), ...read.neutral.slice(0, 1)];
      return { pitfall, reading: read, fallen, cited };
    });
  }

  function makeCall(
    name: string,
    args: Record<string, unknown>,
    key: readonly (string | number)[],
    malformed: boolean,
  ): SimToolCall {
    const json = JSON.stringify(args);
    return {
      id: `call_sim_${hexFrom(20, seed, ...key, name)}`,
      name,
      arguments: malformed ? json.slice(0, Math.max(1, json.length - 2)).replace(/"/, "'") : json,
    };
  }

  function respondMath(instance: MathInstance, ctx: TurnContext): ActorTurn {
    const { family, params } = instance;
    const decisions = decide(family.pitfalls, ctx.lines, instance.question, ctx.requestSeed, !ctx.roles.code);
    const fallen = new Set(decisions.filter((d) => d.fallen).map((d) => d.pitfall.id));
    // The policy does not explain its choices: what it did shows only in its code, its output and its answer.
    const plan = family.describe(params);
    const code = family.code(params, fallen);
    const runner = ctx.roles.code;
    if (!runner) {
      let value = family.evaluate(params, fallen);
      const slipDraw = unitFrom("slip", seed, ctx.requestSeed, instance.question);
      if (slipDraw < behaviour.directSlip) value = slip(value, slipDraw / behaviour.directSlip);
      return {
        content: `${plan} Working it out by hand (the computation, written as code):\n\`\`\`python\n${code}\`\`\`\nI get ${value}.\n${citedLine(decisions)}\\boxed{${value}}`,
        toolCalls: [],
      };
    }
    const runs = ctx.exchanges.filter((e) => e.name === runner.name);
    // The program goes in the argument the tool's schema names for it, beside what else the schema asks.
    const call = (turnKey: string) =>
      makeCall(
        runner.name,
        { [runner.argument]: code, ...runner.fixed },
        [ctx.requestSeed, instance.question, turnKey, ctx.turn],
        ctx.malformed,
      );
    if (runs.length === 0 || ctx.looping) {
      return {
        content: `I'll solve this with the code interpreter. ${plan}`,
        toolCalls: [call("run")],
      };
    }
    const result = readProgramOutput(runs.at(-1)!.output);
    if (!result.ok && runs.length < 2) {
      return {
        content: `The code did not run cleanly (${result.reason}). Retrying once.`,
        toolCalls: [call("retry")],
      };
    }
    const value = result.ok ? result.value! : family.evaluate(params, fallen);
    const source = result.ok
      ? `The code printed ${value}.`
      : `The code failed again (${result.reason}); computing by hand I get ${value}.`;
    return { content: `${source}\n${citedLine(decisions)}Final answer: \\boxed{${value}}`, toolCalls: [] };
  }

  function respondWeb(instance: WebInstance, ctx: TurnContext): ActorTurn {
    const { search: searchTool, fetch: fetchTool } = ctx.roles;
    const direct = !searchTool || !fetchTool;
    const decisions = decide(instance.family.pitfalls, ctx.lines, instance.question, ctx.requestSeed, direct);
    const byId = (id: string) => decisions.find((d) => d.pitfall.id === id);
    const snippetDecision = instance.snippet ? byId("snippet-vs-official") : undefined;
    const outdatedDecision = instance.outdated ? byId("outdated-source") : undefined;
    const unitDecision = instance.unit ? byId("unit-conversion") : undefined;
    const target: WebSource =
      outdatedDecision?.fallen && instance.outdated ? instance.outdated : instance.primary;

    const finish = (value: string | null, sourceText: string): ActorTurn => {
      if (value === null) {
        return {
          content: `I could not find ${instance.subject}.\n\\boxed{unknown}`,
          toolCalls: [],
        };
      }
      const plainValue = value.replace(/,/g, "");
      const answer =
        instance.unit && unitDecision && !unitDecision.fallen
          ? scaleDecimal(plainValue, instance.unit.factor)
          : plainValue;
      const unitText = instance.unit
        ? ` ${instance.unit.page}${unitDecision && !unitDecision.fallen ? `, which is ${answer} ${instance.unit.asked}` : ""}`
        : "";
      return {
        content: `${sourceText} gives ${value}${unitText}.\n${citedLine(decisions)}Final answer: \\boxed{${answer}}`,
        toolCalls: [],
      };
    };

    if (direct) {
      const source = snippetDecision?.fallen && instance.snippet ? instance.snippet : target;
      return finish(source.value, "Answering from memory without tools, what I recall");
    }
    const searches = ctx.exchanges.filter((e) => e.name === searchTool.name);
    const fetches = ctx.exchanges.filter((e) => e.name === fetchTool.name);
    const key = [ctx.requestSeed, instance.question, ctx.turn] as const;
    if (searches.length === 0 || ctx.looping) {
      return {
        content: `I will search for ${instance.subject}.`,
        toolCalls: [
          makeCall(
            searchTool.name,
            {
              [searchTool.argument]: instance.query,
              ...(searchTool.count ? { [searchTool.count.argument]: searchTool.count.value } : {}),
              ...searchTool.fixed,
            },
            [...key, "search"],
            ctx.malformed,
          ),
        ],
      };
    }
    const searchOutput = searches.map((s) => readableText(s.output ?? "")).join("\n");
    if (snippetDecision?.fallen && instance.snippet) {
      return finish(instance.snippet.value, `The search result (${instance.snippet.url})`);
    }
    // Search results may list pages at the address they are served from (the sim server's /corpus/<host>/<path>):
    // fetch the listed address of the chosen page when there is one, as a model copies a URL from the results.
    const canonical = new URL(target.url);
    const listed = [...searchOutput.matchAll(/https?:\/\/[^\s)\]"'<>]+/g)]
      .map((m) => m[0])
      .find((url) => url === target.url || url.endsWith(`/${canonical.host}${canonical.pathname}`));
    const fetchUrl = listed ?? target.url;
    const fetchCall = (label: string) =>
      makeCall(
        fetchTool.name,
        { [fetchTool.argument]: fetchUrl, ...fetchTool.fixed },
        [...key, label],
        ctx.malformed,
      );
    if (fetches.length === 0) {
      return { content: `Opening ${fetchUrl}.`, toolCalls: [fetchCall("fetch")] };
    }
    const page = readableText(fetches.at(-1)!.output ?? "");
    const found = page.includes(target.value) || page.includes(target.value.replace(/,/g, ""));
    if (!found && fetches.length < 2) {
      return {
        content: "The page did not load properly; trying once more.",
        toolCalls: [fetchCall("refetch")],
      };
    }
    if (found) return finish(target.value, `The page ${fetchUrl}`);
    // The page never loaded: fall back on whatever the search results showed.
    const fallback = [instance.snippet, instance.outdated, target].find(
      (source) => source !== undefined && searchOutput.includes(source.value),
    );
    return finish(fallback?.value ?? null, "The search results");
  }

  interface TurnContext {
    lines: ExperienceLine[];
    tools: Set<string>;
    /** The code runner, search and page reader among the offered tools, by what they say they do. */
    roles: ToolRoles;
    exchanges: ToolExchange[];
    requestSeed: string;
    turn: number;
    malformed: boolean;
    looping: boolean;
  }

  return {
    respond(request) {
      const question = firstUserText(request).trim();
      const requestSeed = request.seed === undefined || request.seed === null ? "none" : String(request.seed);
      const turn = request.messages.filter((m) => m.role === "assistant").length;
      const tools = toolNames(request);
      const ctx: TurnContext = {
        lines: linesOf(systemText(request)),
        tools,
        roles: recognizeToolRoles((request.tools ?? []).map((tool) => tool.function)),
        exchanges: exchangesOf(request),
        requestSeed,
        turn,
        malformed:
          tools.size > 0 &&
          unitFrom("malformed", seed, requestSeed, question, turn) < noise.actor.malformedToolCall,
        looping: tools.size > 0 && unitFrom("loop", seed, requestSeed, question) < noise.actor.loop,
      };
      // A retail conversation: the store's tools offered, the customer's opening as the first user message.
      if (tools.has("find_user_id_by_name_zip") && tools.has("get_order_details")) {
        const conversation = request.messages.map(messageText).join("\n");
        const retail = recognizeRetailConversation(question, conversation);
        if (retail) return respondRetail(retail, request, { seed, requestSeed, lines: ctx.lines, reading });
      }
      // A repair task: the workspace's tools offered, the defective program in the question.
      if (tools.has("run_tests") && tools.has("write_file")) {
        const repair = recognizeRepairQuestion(question);
        if (repair) return respondRepair(repair, request, { seed, requestSeed, lines: ctx.lines, reading });
      }
      const instance = world.recognize(question);
      if (instance?.domain === "math") return respondMath(instance, ctx);
      if (instance?.domain === "web") return respondWeb(instance, ctx);
      if (instance?.domain === "tickets" && ctx.tools.has("update_ticket")) {
        const decisions = decide([assigneeByName], ctx.lines, instance.question, ctx.requestSeed, false);
        const turn = respondTickets(instance, ctx.exchanges, decisions[0]!.fallen, (name, args, label) =>
          makeCall(name, args, [ctx.requestSeed, instance.question, ctx.turn, label], ctx.malformed),
        );
        return {
          ...turn,
          content: turn.toolCalls.length > 0 ? turn.content : `${citedLine(decisions)}${turn.content}`,
        };
      }
      // Unknown question: a plausible but unfounded answer, never an error.
      const numbers = question.match(/-?\d+(?:\.\d+)?/g) ?? [];
      const guess =
        numbers.length > 0
          ? numbers[Math.floor(unitFrom("guess", seed, question) * numbers.length)]!
          : "unknown";
      return {
        content: `I do not recognise a reliable method for this problem; my best estimate is ${guess}.\n\\boxed{${guess}}`,
        toolCalls: [],
      };
    },
  };
}
