import { randomUUID } from "node:crypto";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import {
  createEmbeddingCache,
  type EmbeddingCache,
  type EmbedFunction,
  type EnvironmentRecord,
  formatZodIssues,
  isBuiltInTool,
  type LibrarySnapshot,
  type RolloutRequest,
  rolloutRequestSchema,
  type Task,
  TfgrpoError,
  type Trajectory,
  trajectoryIdentity,
  type UsageTotals,
  variedFields,
} from "@tfgrpo/protocol";
import {
  type ActorConfig,
  type ActorConfigInput,
  domainConfigFor,
  parseActorConfig,
  type ToolName,
} from "./actor-config.js";
import { applyExposure } from "./apply-exposure.js";
import { assemblePrompt } from "./assemble-prompt.js";
import { deriveSeed } from "./derive-seed.js";
import { embedLibraryEntries, type LibraryEmbeddings } from "./embed-library-entries.js";
import { type RecordableEnvironment, recordAttemptEnvironment } from "./environment-record.js";
import { createExperienceIndex, type ExperienceIndex, type ExperienceSelection } from "./experience-index.js";
import { extractCitations } from "./extract-citations.js";
import { createLibraryCache, type LibraryLoader } from "./library-cache.js";
import { runReactLoop } from "./react-loop.js";
import { createEnvironmentRedactor } from "./redact-environment-secrets.js";
import { rolloutLabels } from "./rollout-labels.js";
import { type CallTokens, createRolloutRecorder } from "./rollout-recorder.js";
import { createUserConversation, userScenarioOf } from "./user-conversation.js";

export interface ChatOptions {
  temperature?: number;
  seed?: number;
  maxTokens?: number;
}

/**
 * What the actor needs of `@tfgrpo/models`: a chat model for the actor role (usage and budget wired in), and for
 * the `user` role in conversational domains (a task with `meta.userScenario`).
 */
export interface ActorModels {
  chat(role: "actor" | "user", options: ChatOptions): BaseChatModel;
  /**
   * Runs `work` and reports the usage (tokens, cost, latency) of every model call made inside it. When present, a
   * trajectory's usage comes from here (priced by the models config); otherwise from the responses' token counts.
   */
  track?<T>(work: () => Promise<T>): Promise<{ result: T; usage: UsageTotals }>;
}

/** Tools for one rollout. A fresh toolset per rollout keeps code-interpreter state from leaking between rollouts. */
export interface ActorToolset {
  tools: readonly StructuredToolInterface[];
  /** The attempt's own environment (stateful MCP servers): its state after reset, and now. */
  environment?: RecordableEnvironment | undefined;
  close?(): Promise<void> | void;
}

/** What a toolset factory knows of the attempt: its task (sent to `environment_reset`) and its abort signal. */
export interface ToolsetContext {
  task: Task;
  signal?: AbortSignal;
}

/**
 * A fresh toolset per attempt. Throwing `environment_unavailable` (a server that did not start or reset) fails the
 * attempt as infrastructure (`environment_error`).
 */
export type ToolsetFactory = (
  domain: string,
  names: readonly ToolName[],
  context: ToolsetContext,
) => ActorToolset | Promise<ActorToolset>;

export type ActorEvent =
  | { type: "rollout-start"; taskId: string; attempt: number; runId: string }
  | {
      type: "rollout-end";
      taskId: string;
      attempt: number;
      runId: string;
      stopReason: string;
      latencyMs: number;
    }
  | { type: "retrieval-degraded"; taskId: string; reason: string };

export interface CreateActorOptions {
  models: ActorModels;
  /** Tools by domain; without it every rollout is direct (no tools). */
  tools?: ToolsetFactory;
  /** Reads immutable library versions (cached here by domain + version). */
  library?: LibraryLoader;
  /** Embeds texts for retrieval (e.g. `models.embed`); without it, entries are ranked by utility alone. */
  embed?: EmbedFunction;
  config?: ActorConfigInput | ActorConfig;
  /** Milliseconds since the epoch (injected so tests are exact). */
  now?: () => number;
  generateId?: () => string;
  /** Scrubs secrets from every string a trajectory records. */
  redact?: (text: string) => string;
  /** USD of one model call; the models layer knows the prices. */
  costUsd?: (tokens: CallTokens) => number;
  onEvent?: (event: ActorEvent) => void;
}

/** How a rollout will run, decided before the model is called. */
interface RolloutPlan {
  mode: "tools" | "direct";
  toolNames: ToolName[];
  selection: ExperienceSelection;
  /** Entries the group varies that this attempt was not shown (`applyExposure`). */
  withheld: string[];
  /** Each varied entry's similarity to the task (`applyExposure`). */
  variedSimilarity: Record<string, number>;
  temperature: number;
  seed: number;
  libraryVersion: number | null;
}

export interface PreparedPrompt extends RolloutPlan {
  system: string;
  user: string;
}

export interface RolloutOptions {
  /** Aborting it ends the rollout (recorded as an error, not thrown). */
  signal?: AbortSignal;
  /** Called after each model and tool call: a heartbeat for long jobs. */
  onProgress?: () => void;
}

export interface Actor {
  readonly config: ActorConfig;
  /**
   * One rollout: task + library version + model + tools in, a Trajectory out. Model and tool failures, limits and
   * timeouts end the rollout with a stop reason and an error message; only a bad request or a missing library
   * version throws.
   */
  rollout(request: RolloutRequest, options?: RolloutOptions): Promise<Trajectory>;
  /** The prompt a rollout of `request` would use, without calling the model (for `solve --show-prompt` and tests). */
  preparePrompt(request: RolloutRequest): Promise<PreparedPrompt>;
}

export function createActor(options: CreateActorOptions): Actor {
  const config = parseActorConfig(options.config ?? {});
  const now = options.now ?? Date.now;
  const generateId = options.generateId ?? randomUUID;
  const redact = options.redact ?? createEnvironmentRedactor();
  const costUsd = options.costUsd ?? (() => 0);
  const library = options.library ? createLibraryCache(options.library, { now }) : undefined;
  const embeddings: EmbeddingCache | undefined = options.embed
    ? createEmbeddingCache({ embed: options.embed })
    : undefined;
  // One index per snapshot object: a reloaded snapshot (fresh stats) gets a fresh index; embeddings are cached by
  // text, so rebuilding costs no model call.
  const indexes = new WeakMap<LibrarySnapshot, Promise<{ index: ExperienceIndex; embedded: boolean }>>();

  const warn = (taskId: string, reason: string) =>
    options.onEvent?.({ type: "retrieval-degraded", taskId, reason: redact(reason) });

  /** One index per library version, with entry embeddings when they could be had. */
  const indexFor = (snapshot: LibrarySnapshot, taskId: string) => {
    const key = `${snapshot.domain}@${snapshot.version}`;
    let entry = indexes.get(snapshot);
    if (!entry) {
      entry = (async () => {
        let vectors: LibraryEmbeddings | undefined;
        if (embeddings) {
          try {
            vectors = await embedLibraryEntries(embeddings, snapshot.experiences);
          } catch (error) {
            warn(taskId, `embedding library ${key} failed: ${(error as Error).message}`);
          }
        }
        const index = createExperienceIndex({
          experiences: snapshot.experiences,
          config: config.retrieval,
          ...vectors,
        });
        return { index, embedded: vectors !== undefined };
      })();
      indexes.set(snapshot, entry);
      void entry.then(({ embedded }) => {
        // An index built without embeddings (embedder down) is not kept: the next rollout tries again.
        if (!embedded && embeddings && indexes.get(snapshot) === entry) indexes.delete(snapshot);
      });
    }
    return entry;
  };

  const select = async (request: RolloutRequest): Promise<ExperienceSelection> => {
    const none: ExperienceSelection = {
      mode: "none",
      shown: [],
      mostUseful: [],
      tokens: 0,
      budget: 0,
      eligible: 0,
      droppedByConflictGroup: 0,
    };
    if (!request.library) return none;
    const { domain, version } = request.library;
    if (!library) {
      throw new TfgrpoError(
        "invalid_config",
        `rollout ${describeRequest(request)} asks for library ${domain}@v${version} but the actor has no library source`,
      );
    }
    const snapshot = await library(domain, version, request.library.statsRevision);
    if (!snapshot) {
      throw new TfgrpoError(
        "not_found",
        `library ${domain}@v${version} does not exist (rollout ${describeRequest(request)})`,
        {
          details: { domain, version },
        },
      );
    }
    // The task's embedding does not wait for the library's: both calls start now, so the first rollouts of a version
    // wait for one embedding round trip, not two in a row (the cache makes it one call per task and one per entry).
    const live = snapshot.experiences.some((experience) => experience.status !== "archived");
    const taskEmbedding =
      embeddings && live
        ? embeddings.embed([request.task.question]).then(
            (vectors) => ({ vector: vectors[0] ?? null }),
            (error: unknown) => ({ error: error as Error }),
          )
        : undefined;
    const { index, embedded } = await indexFor(snapshot, request.task.id);
    let taskVector: Float32Array | null = null;
    if (embedded && taskEmbedding && index.dimensions > 0) {
      const outcome = await taskEmbedding;
      if ("error" in outcome) warn(request.task.id, `embedding the task failed: ${outcome.error.message}`);
      else taskVector = outcome.vector;
    }
    try {
      return index.select(taskVector, request.task.question);
    } catch (error) {
      // A task vector of another size means the embedder changed under us: rank by utility alone.
      warn(request.task.id, (error as Error).message);
      return index.select(null, request.task.question);
    }
  };

  const plan = async (request: RolloutRequest): Promise<RolloutPlan> => {
    const domainConfig = domainConfigFor(config, request.task.domain);
    const wantsTools =
      request.mode !== "direct" && domainConfig.tools.length > 0 && options.tools !== undefined;
    const exposed = applyExposure(await select(request), request.exposure, request.attempt);
    const temperature =
      request.temperature ??
      (request.purpose === "eval" || request.purpose === "validate"
        ? config.evalTemperature
        : config.temperature);
    const seed = request.seed ?? deriveSeed(request.runId, request.task.id, request.attempt);
    return {
      mode: wantsTools ? "tools" : "direct",
      toolNames: wantsTools ? [...domainConfig.tools] : [],
      selection: exposed.selection,
      withheld: exposed.withheld,
      variedSimilarity: exposed.variedSimilarity,
      temperature,
      seed,
      libraryVersion: request.library?.version ?? null,
    };
  };

  const render = (
    prepared: RolloutPlan,
    request: RolloutRequest,
    tools: readonly StructuredToolInterface[],
  ) =>
    assemblePrompt({
      rolePrompt: domainConfigFor(config, request.task.domain).systemPrompt,
      tools: tools.map((tool) => ({ name: tool.name, description: tool.description })),
      experiences: prepared.selection.shown,
      mostUseful: prepared.selection.mostUseful,
      question: request.task.question,
      conversational: userScenarioOf(request.task) !== undefined,
    });

  const openToolset = async (
    request: RolloutRequest,
    names: ToolName[],
    signal?: AbortSignal,
  ): Promise<Required<Omit<ActorToolset, "environment">> & Pick<ActorToolset, "environment">> => {
    if (names.length === 0 || !options.tools)
      return { tools: [] as StructuredToolInterface[], environment: undefined, close: async () => {} };
    const toolset = await options.tools(request.task.domain, names, {
      task: request.task,
      ...(signal ? { signal } : {}),
    });
    const wanted = new Set<string>(names);
    return {
      // A built-in the domain did not ask for is dropped; MCP and module tools come from entries that name them.
      tools: toolset.tools.filter((tool) => !isBuiltInTool(tool.name) || wanted.has(tool.name)),
      environment: toolset.environment,
      close: async () => {
        await toolset.close?.();
      },
    };
  };

  return {
    config,

    async preparePrompt(input) {
      const request = parseRequest(input);
      const prepared = await plan(request);
      const toolset = await openToolset(request, prepared.toolNames);
      try {
        const prompt = render(prepared, request, toolset.tools);
        return { ...prepared, system: prompt.system, user: prompt.user };
      } finally {
        await toolset.close();
      }
    },

    async rollout(input, rolloutOptions = {}) {
      const request = parseRequest(input);
      const started = now();
      options.onEvent?.({
        type: "rollout-start",
        taskId: request.task.id,
        attempt: request.attempt,
        runId: request.runId,
      });
      const prepared = await plan(request);
      let toolset: Awaited<ReturnType<typeof openToolset>> = {
        tools: [],
        environment: undefined,
        close: async () => {},
      };
      let environment: EnvironmentRecord | undefined;
      const recorder = createRolloutRecorder({ storedChars: config.toolOutputStoredChars, redact });
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new TfgrpoError("internal", `rollout timed out after ${config.timeoutMs} ms`));
      }, config.timeoutMs);
      const abortFromCaller = () => controller.abort(rolloutOptions.signal?.reason);
      if (rolloutOptions.signal?.aborted) abortFromCaller();
      rolloutOptions.signal?.addEventListener("abort", abortFromCaller, { once: true });
      let modelName: string | undefined;
      let finalAnswer: string | null = null;
      let trackedUsage: UsageTotals | undefined;
      try {
        toolset = await openToolset(request, prepared.toolNames, controller.signal);
        const model = options.models.chat("actor", {
          temperature: prepared.temperature,
          seed: prepared.seed,
          ...(config.maxOutputTokensPerCall === undefined
            ? {}
            : { maxTokens: config.maxOutputTokensPerCall }),
        });
        modelName = modelNameOf(model);
        const prompt = render(prepared, request, toolset.tools);
        const scenario = userScenarioOf(request.task);
        const user = scenario
          ? {
              conversation: createUserConversation({
                model: options.models.chat("user", {
                  temperature: prepared.temperature,
                  seed: prepared.seed,
                }),
                scenario,
                maxReplyChars: config.userReplyChars,
              }),
              maxTurns: config.maxUserTurns,
            }
          : undefined;
        const loop = () =>
          runReactLoop({
            model,
            tools: toolset.tools,
            system: prompt.system,
            question: prompt.user,
            config,
            recorder,
            signal: controller.signal,
            timedOut: () => timedOut,
            now,
            costUsd,
            ...(rolloutOptions.onProgress ? { onProgress: rolloutOptions.onProgress } : {}),
            ...(user ? { user } : {}),
            run: rolloutLabels(request),
          });
        let result: Awaited<ReturnType<typeof loop>>;
        if (options.models.track) {
          const tracked = await options.models.track(loop);
          result = tracked.result;
          trackedUsage = tracked.usage;
        } else result = await loop();
        finalAnswer = result.finalAnswer;
        if (toolset.environment && recorder.stopped?.reason !== "environment_error") {
          // Read even after a timeout (the state call has its own deadline): the reward needs the end state.
          environment = await recordAttemptEnvironment(toolset.environment, {
            maxStateChars: config.environmentStateChars,
            maxDiffEntries: config.environmentDiffEntries,
            redact,
          });
        }
      } catch (error) {
        // runReactLoop records its own failures; this catches setup failures such as a model config error, and an
        // environment that did not start, reset or report its state (infrastructure, whatever the loop decided).
        if (TfgrpoError.hasCode(error, "environment_unavailable")) {
          recorder.fail("environment_error", (error as Error).message);
        } else {
          recorder.stop(
            TfgrpoError.hasCode(error, "budget_exceeded") ? "budget" : "error",
            (error as Error).message,
          );
        }
      } finally {
        clearTimeout(timer);
        rolloutOptions.signal?.removeEventListener("abort", abortFromCaller);
        try {
          await toolset.close();
        } catch {
          // A toolset that fails to close (a sandbox already gone) must not lose the trajectory.
        }
      }

      const shownIds = prepared.selection.shown.map((entry) => entry.id);
      const assistantTexts = recorder.messages
        .filter((message) => message.role === "assistant")
        .map((message) => message.content);
      const stopped = recorder.stopped ?? { reason: "error" as const, error: "no stop reason recorded" };
      const latencyMs = Math.max(0, now() - started);
      const trajectory: Trajectory = {
        ...trajectoryIdentity(request, generateId(), prepared.libraryVersion),
        ...(modelName ? { model: modelName } : {}),
        messages: [...recorder.messages],
        toolCalls: [...recorder.toolCalls],
        ...(environment ? { environment } : {}),
        finalAnswer: finalAnswer === null ? null : redact(finalAnswer),
        experiencesShown: shownIds,
        ...variedFields(prepared),
        experiencesCited: extractCitations(assistantTexts, new Set(shownIds)),
        usage: trackedUsage ?? recorder.usage,
        latencyMs,
        stopReason: stopped.reason,
        ...(stopped.error === undefined ? {} : { error: stopped.error }),
      };
      options.onEvent?.({
        type: "rollout-end",
        taskId: request.task.id,
        attempt: request.attempt,
        runId: request.runId,
        stopReason: trajectory.stopReason,
        latencyMs,
      });
      return trajectory;
    },
  };
}

function parseRequest(input: RolloutRequest): RolloutRequest {
  const parsed = rolloutRequestSchema.safeParse(input);
  if (!parsed.success) {
    throw new TfgrpoError("invalid_input", `rollout request: ${formatZodIssues(parsed.error.issues)}`);
  }
  return parsed.data;
}

function describeRequest(request: RolloutRequest): string {
  return `${request.runId}/${request.task.id}#${request.attempt}`;
}

function modelNameOf(model: BaseChatModel): string | undefined {
  const candidate =
    (model as unknown as { model?: unknown; modelName?: unknown }).model ??
    (model as unknown as { modelName?: unknown }).modelName;
  return typeof candidate === "string" ? candidate : undefined;
}
