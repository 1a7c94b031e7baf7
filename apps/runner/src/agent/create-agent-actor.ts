import { randomUUID } from "node:crypto";
import {
  type Actor,
  type ActorConfigInput,
  createActor,
  extractBoxedAnswer,
  extractCitations,
  type LibraryLoader,
  renderExperienceBlock,
} from "@tfgrpo/actor";
import {
  type AgentAttempt,
  type EmbedFunction,
  emptyUsageTotals,
  runAgentAttempt,
  type StopReason,
  type Task,
  TfgrpoError,
  type Trajectory,
  toRunOutcome,
  trajectoryIdentity,
  variedFields,
} from "@tfgrpo/protocol";
import type { AgentRunRecord } from "./agent-run-record.js";
import { runAiSdkAgent } from "./ai-sdk-agent-run.js";
import { runFunctionAgent } from "./function-agent-run.js";
import { runLangChainAgent } from "./langchain-agent-run.js";
import type { AgentModule } from "./load-agent-module.js";
import { runOpenAIAgent } from "./openai-agents-agent-run.js";

export interface CreateAgentActorOptions {
  module: AgentModule;
  library?: LibraryLoader;
  /** Ranks entries by similarity to the task, as tfgrpo's actor does (without it, by utility alone). */
  embed?: EmbedFunction;
  config?: ActorConfigInput;
  now?: () => number;
  generateId?: () => string;
  redact?: (text: string) => string;
}

/** Nothing the agent actor does calls a model of tfgrpo's: the team's agent brings its own. */
const noModels = {
  chat(): never {
    throw new TfgrpoError(
      "internal",
      "the agent actor has no model of its own: the team's agent calls its model",
    );
  },
};

/**
 * The team's agent standing in for tfgrpo's actor (`learn --agent`, `eval --agent`, `serve --role actor` with an
 * agent module). Each rollout request is prepared exactly as tfgrpo's actor prepares it (the same selection and the
 * exposure arm of the attempt, `preparePrompt`), then the agent runs with that block and the attempt's seed (its
 * middleware reads them from the attempt context; a plain function gets them as arguments), and what it did becomes
 * the trajectory. The module's `reward`, when exported, scores it; otherwise tfgrpo's critic does, as for its actor.
 */
export function createAgentActor(options: CreateAgentActorOptions): Actor {
  const planner = createActor({
    models: noModels,
    ...(options.library ? { library: options.library } : {}),
    ...(options.embed ? { embed: options.embed } : {}),
    config: options.config ?? {},
  });
  const config = planner.config;
  const now = options.now ?? Date.now;
  const generateId = options.generateId ?? randomUUID;
  const redact = options.redact ?? ((text: string) => text);
  const { module } = options;

  const runAgent = (attempt: AgentAttempt, task: Task, id: string, signal: AbortSignal) => {
    const { question } = task;
    const storedChars = config.toolOutputStoredChars;
    const { agent } = module;
    if (agent.kind === "langchain") {
      return runLangChainAgent(agent.agent, {
        question,
        threadId: id,
        signal,
        // A model call and its tools are two graph steps; every before/after hook of the agent's middleware (tfgrpo's
        // two, the team's) is a step too, so the limit leaves room for them beyond the actor's own steps.
        recursionLimit: config.maxSteps * 4 + 8,
        storedChars,
      });
    }
    if (agent.kind === "ai-sdk") return runAiSdkAgent(agent.agent, { question, signal, storedChars });
    if (agent.kind === "openai-agents") return runOpenAIAgent(agent.agent, { question, signal, storedChars });
    return runFunctionAgent(
      agent.agent,
      {
        task: { id: task.id, question, domain: task.domain },
        experiences: attempt.promptBlock,
        shownIds: [...attempt.shownIds],
        seed: attempt.seed,
        temperature: attempt.temperature,
        signal,
      },
      { file: module.file, storedChars },
    );
  };

  return {
    config,
    preparePrompt: (request) => planner.preparePrompt({ ...request, mode: "direct" }),
    async rollout(request, rolloutOptions = {}) {
      const started = now();
      const prepared = await planner.preparePrompt({ ...request, mode: "direct" });
      const shownIds = prepared.selection.shown.map((entry) => entry.id);
      const attempt: AgentAttempt = {
        taskId: request.task.id,
        attempt: request.attempt,
        promptBlock: renderExperienceBlock(prepared.selection.shown, prepared.selection.mostUseful),
        shownIds,
        seed: prepared.seed,
        temperature: prepared.temperature,
        used: false,
      };
      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(new TfgrpoError("internal", `rollout timed out after ${config.timeoutMs} ms`)),
        config.timeoutMs,
      );
      const abort = () => controller.abort(rolloutOptions.signal?.reason);
      if (rolloutOptions.signal?.aborted) abort();
      rolloutOptions.signal?.addEventListener("abort", abort, { once: true });
      let record: AgentRunRecord = {
        messages: [{ role: "user", content: request.task.question }],
        toolCalls: [],
        text: "",
      };
      let stopReason: StopReason = "answered";
      let error: string | undefined;
      try {
        const threadId = `${request.runId}:${request.groupId}:${request.attempt}`;
        record = await runAgentAttempt(attempt, () =>
          runAgent(attempt, request.task, threadId, controller.signal),
        );
        if (module.agent.kind !== "function" && !attempt.used) {
          stopReason = "error";
          error = `${module.file}: the agent never called tfgrpo's experienceMiddleware, so it was shown nothing: add the middleware (@tfgrpo/langgraph for createAgent, @tfgrpo/ai-sdk for the AI SDK)`;
        }
      } catch (caught) {
        stopReason = controller.signal.aborted && !rolloutOptions.signal?.aborted ? "timeout" : "error";
        error = redact((caught as Error).message ?? String(caught));
      } finally {
        clearTimeout(timer);
        rolloutOptions.signal?.removeEventListener("abort", abort);
      }
      const finalAnswer =
        error === undefined
          ? (record.answer ?? extractBoxedAnswer(record.text) ?? (record.text.trim() || null))
          : null;
      if (error === undefined && finalAnswer === null) stopReason = "no_answer";
      const system = attempt.systemPrompt ?? attempt.promptBlock;
      const trajectory: Trajectory = {
        ...trajectoryIdentity(request, generateId(), prepared.libraryVersion),
        model: `agent:${module.agent.kind}`,
        messages: [
          ...(system === "" ? [] : [{ role: "system" as const, content: redact(system) }]),
          ...record.messages.map((message) => ({ ...message, content: redact(message.content) })),
        ],
        toolCalls: record.toolCalls.map((call) => ({ ...call, output: redact(call.output) })),
        finalAnswer: finalAnswer === null ? null : redact(finalAnswer),
        experiencesShown: shownIds,
        ...variedFields(prepared),
        experiencesCited: extractCitations(
          record.messages.filter((m) => m.role === "assistant").map((m) => m.content),
          new Set(shownIds),
        ),
        usage: { ...emptyUsageTotals(), ...record.usage },
        latencyMs: Math.max(0, now() - started),
        stopReason,
        ...(error === undefined ? {} : { error }),
      };
      if (module.reward && error === undefined) {
        const outcome = toRunOutcome(
          await module.reward(request.task, { ...record, finalAnswer }),
          `${module.file}'s reward`,
        );
        trajectory.reward = outcome.reward;
        trajectory.rewardInfo = {
          grade: outcome.success ? "pass" : outcome.reward > 0 ? "partial" : "fail",
          extracted: finalAnswer,
          method: "agent-module",
          ...(outcome.feedback === undefined ? {} : { reason: outcome.feedback }),
        };
      }
      return trajectory;
    },
  };
}
