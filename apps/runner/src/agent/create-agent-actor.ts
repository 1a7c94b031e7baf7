import { randomUUID } from "node:crypto";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  type Actor,
  type ActorConfigInput,
  createActor,
  createUserConversation,
  domainConfigFor,
  extractBoxedAnswer,
  extractCitations,
  type LibraryLoader,
  renderExperienceBlock,
  type ToolsetFactory,
  userScenarioOf,
} from "@tfgrpo/actor";
import {
  type AgentAttempt,
  type EmbedFunction,
  type EnvironmentRecord,
  emptyUsageTotals,
  type RolloutRequest,
  runAgentAttempt,
  type StopReason,
  TfgrpoError,
  type Trajectory,
  toRunOutcome,
  trajectoryIdentity,
  variedFields,
} from "@tfgrpo/protocol";
import { runAgentConversation } from "./agent-conversation.js";
import type { AgentRunRecord } from "./agent-run-record.js";
import { startAgentSession } from "./agent-session.js";
import { type AttemptEnvironment, openAttemptEnvironment } from "./attempt-environment.js";
import type { AgentModule } from "./load-agent-module.js";

export interface CreateAgentActorOptions {
  module: AgentModule;
  library?: LibraryLoader;
  /** Ranks entries by similarity to the task, as tfgrpo's actor does (without it, by utility alone). */
  embed?: EmbedFunction;
  config?: ActorConfigInput;
  now?: () => number;
  generateId?: () => string;
  redact?: (text: string) => string;
  /**
   * Toolsets per attempt, the factory tfgrpo's own actor uses: a domain whose settings name MCP servers or tool
   * modules gets its environment opened for each attempt and handed to the agent.
   */
  tools?: ToolsetFactory;
  /** The `user` role's model, for conversational tasks (`meta.userScenario`). */
  userModel?: (options: { temperature: number; seed: number }) => BaseChatModel;
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

  /** The domain's tools from MCP servers and tool modules: tfgrpo's built-ins are its actor's, not the agent's. */
  const environmentTools = (domain: string) =>
    domainConfigFor(config, domain).tools.filter((name) => name.includes(":"));

  /** The agent on the task, or turn by turn against the user role; what it did, and how it ended. */
  const runAgent = async (
    attempt: AgentAttempt,
    request: RolloutRequest,
    environment: AttemptEnvironment | undefined,
    signal: AbortSignal,
  ): Promise<{ record: AgentRunRecord; stopReason: StopReason; error?: string; kind: string }> => {
    const { task } = request;
    const scenario = userScenarioOf(task);
    if (scenario && !options.userModel) {
      throw new TfgrpoError(
        "invalid_config",
        `task ${task.id} is a conversation (meta.userScenario) and no user role is configured: give a models config with a \`user\` role (--config), or --sim`,
      );
    }
    const conversation =
      scenario && options.userModel
        ? createUserConversation({
            model: options.userModel({ temperature: attempt.temperature, seed: attempt.seed }),
            scenario,
            maxReplyChars: config.userReplyChars,
          })
        : undefined;
    const session = startAgentSession(
      module.agent,
      conversation ? [{ role: "assistant", content: conversation.greeting }] : [],
      {
        file: module.file,
        input: {
          task: { id: task.id, question: task.question, domain: task.domain },
          tools: environment?.tools ?? [],
          environment: environment?.agent,
          experiences: attempt.promptBlock,
          shownIds: [...attempt.shownIds],
          seed: attempt.seed,
          temperature: attempt.temperature,
          signal,
        },
        threadId: `${request.runId}:${request.groupId}:${request.attempt}`,
        signal,
        // A model call and its tools are two graph steps; every before/after hook of the agent's middleware (tfgrpo's
        // two, the team's) is a step too, so the limit leaves room for them beyond the actor's own steps.
        recursionLimit: config.maxSteps * 4 + 8,
        storedChars: config.toolOutputStoredChars,
      },
    );
    if (conversation) {
      const result = await runAgentConversation({
        session,
        conversation,
        maxTurns: config.maxUserTurns,
        signal,
      });
      return { ...result, kind: session.kind };
    }
    const { record } = await session.turn(task.question);
    return { record, stopReason: "answered", kind: session.kind };
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
      let kind: string = module.agent.kind;
      let environment: AttemptEnvironment | undefined;
      let environmentRecord: EnvironmentRecord | undefined;
      try {
        const names = environmentTools(request.task.domain);
        if (options.tools && names.length > 0) {
          environment = await openAttemptEnvironment(options.tools, request.task.domain, names, {
            task: request.task,
            signal: controller.signal,
          });
        }
        const ran = await runAgentAttempt(attempt, () =>
          runAgent(attempt, request, environment, controller.signal),
        );
        record = ran.record;
        kind = ran.kind;
        stopReason = ran.stopReason;
        error = ran.error;
        if (kind !== "function" && !attempt.used) {
          stopReason = "error";
          error = `${module.file}: the agent never called tfgrpo's experienceMiddleware, so it was shown nothing: add the middleware (@tfgrpo/langgraph for createAgent, @tfgrpo/ai-sdk for the AI SDK)`;
        }
      } catch (caught) {
        stopReason = controller.signal.aborted && !rolloutOptions.signal?.aborted ? "timeout" : "error";
        error = redact((caught as Error).message ?? String(caught));
        if (TfgrpoError.hasCode(caught, "environment_unavailable")) stopReason = "environment_error";
      } finally {
        clearTimeout(timer);
        rolloutOptions.signal?.removeEventListener("abort", abort);
      }
      if (environment) {
        // The environment is infrastructure: one that died under the agent fails the attempt whatever the agent did.
        const failure = environment.failure();
        try {
          if (failure) throw failure;
          if (stopReason !== "environment_error") {
            environmentRecord = await environment.record({
              maxStateChars: config.environmentStateChars,
              maxDiffEntries: config.environmentDiffEntries,
              redact,
            });
          }
        } catch (caught) {
          stopReason = "environment_error";
          error = redact((caught as Error).message ?? String(caught));
        }
        await environment.close().catch(() => {});
      }
      const finalAnswer =
        error === undefined
          ? (record.answer ?? extractBoxedAnswer(record.text) ?? (record.text.trim() || null))
          : null;
      if (error === undefined && finalAnswer === null && stopReason === "answered") stopReason = "no_answer";
      const system = attempt.systemPrompt ?? attempt.promptBlock;
      const trajectory: Trajectory = {
        ...trajectoryIdentity(request, generateId(), prepared.libraryVersion),
        model: `agent:${kind}`,
        messages: [
          ...(system === "" ? [] : [{ role: "system" as const, content: redact(system) }]),
          ...record.messages.map((message) => ({ ...message, content: redact(message.content) })),
        ],
        toolCalls: record.toolCalls.map((call) => ({ ...call, output: redact(call.output) })),
        ...(environmentRecord ? { environment: environmentRecord } : {}),
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
          await module.reward(request.task, {
            ...record,
            finalAnswer,
            ...(environmentRecord ? { environment: environmentRecord } : {}),
          }),
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
