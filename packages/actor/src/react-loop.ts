import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  type InvalidToolCall,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { type Runnable, RunnableLambda } from "@langchain/core/runnables";
import type { StructuredToolInterface } from "@langchain/core/tools";
import {
  billedOutputTokens,
  environmentUnavailablePrefix,
  sandboxUnavailablePrefix,
  TfgrpoError,
} from "@tfgrpo/protocol";
import type { ActorConfig } from "./actor-config.js";
import { extractBoxedAnswer } from "./extract-boxed-answer.js";
import { messageText } from "./message-text.js";
import type { CallTokens, RolloutRecorder } from "./rollout-recorder.js";
import { tracedToolCall } from "./traced-tool-call.js";
import { truncateText } from "./truncate-text.js";
import type { UserConversation } from "./user-conversation.js";

export interface ReactLoopInput {
  model: BaseChatModel;
  /** Empty in direct mode: the model is called without tools. */
  tools: readonly StructuredToolInterface[];
  system: string;
  question: string;
  config: ActorConfig;
  recorder: RolloutRecorder;
  /** Aborted on timeout or by the caller; `timedOut()` tells which. */
  signal: AbortSignal;
  timedOut: () => boolean;
  now: () => number;
  costUsd: (tokens: CallTokens) => number;
  /** Called after each model call and each tool call (a heartbeat for long jobs). */
  onProgress?: () => void;
  /** Name, metadata and tags of the loop's LangChain run (what LangSmith shows when its tracing is on). */
  run?: RunLabels;
  /**
   * A conversational rollout: the model's plain messages go to this user, whose replies come back, until the user
   * ends the conversation or `maxTurns` user replies. `question` is then not shown: the conversation opens with the
   * agent's greeting and the user's answer to it.
   */
  user?: { conversation: UserConversation; maxTurns: number };
}

export interface RunLabels {
  runName: string;
  metadata: Record<string, string | number>;
  tags: string[];
}

export interface ReactLoopResult {
  finalAnswer: string | null;
}

/**
 * The ReAct loop (model, then its tool calls, then the model again) with tfgrpo's limits: max model calls, max tool calls,
 * max tokens, a wall-clock timeout, and a stop on a repeated identical call. Any way it ends is recorded on the
 * recorder (stop reason + error) instead of thrown, so a misbehaving model still yields a finished trajectory.
 */
export async function runReactLoop(input: ReactLoopInput): Promise<ReactLoopResult> {
  const { config, recorder, now } = input;
  const toolsByName = new Map(input.tools.map((tool) => [tool.name, tool]));
  const bound: Runnable<BaseMessage[], AIMessage> =
    input.tools.length > 0 && input.model.bindTools
      ? (input.model.bindTools([...input.tools]) as Runnable<BaseMessage[], AIMessage>)
      : (input.model as unknown as Runnable<BaseMessage[], AIMessage>);

  let steps = 0;
  let toolCallsMade = 0;
  let tokensUsed = 0;
  let refusedRounds = 0;
  let finalAnswer: string | null = null;
  let lastBoxed: string | null = null;
  let userTurns = 0;
  // A user reply was added: the agent speaks next even without tool calls pending.
  let userSpoke = false;
  // Per identical call (name + arguments): how many times in a row it was made with nothing new in between and gave
  // the same output. A call made with new arguments since (a file written, another order read) or an output that
  // changed (a stateful environment) starts it again at one: progress, not a loop.
  const callCounts = new Map<string, { repeats: number; output: string; at: number }>();
  let callIndex = 0;
  let lastNewCall = -1;

  const stopForError = (error: unknown) => {
    if (input.timedOut()) recorder.stop("timeout", `rollout exceeded its ${config.timeoutMs} ms time limit`);
    else if (input.signal.aborted)
      recorder.stop("error", `rollout aborted: ${describe(input.signal.reason)}`);
    else if (TfgrpoError.hasCode(error, "budget_exceeded")) recorder.stop("budget", describe(error));
    else recorder.stop("model_error", describe(error));
  };

  // Calls of the last assistant message, waiting for the tools node.
  let pending: PendingCall[] = [];

  const agent = async (conversation: readonly BaseMessage[]): Promise<{ messages?: BaseMessage[] }> => {
    pending = [];
    if (steps >= config.maxSteps) {
      recorder.stop(
        "max_steps",
        `the model made ${steps} calls without a final answer (limit ${config.maxSteps})`,
      );
      return {};
    }
    if (tokensUsed >= config.maxTokens) {
      recorder.stop("max_tokens", `the rollout used ${tokensUsed} tokens (limit ${config.maxTokens})`);
      return {};
    }
    const added: BaseMessage[] = [];
    // The model cannot see the step limit; on its last call it is told to answer, which rescues many rollouts.
    if (steps === config.maxSteps - 1 && steps > 0) {
      const nudge =
        "You have reached the step limit. Do not call any more tools: give your final answer now as \\boxed{answer}.";
      added.push(new HumanMessage(nudge));
      recorder.message({ role: "user", content: nudge });
    }
    const started = now();
    let response: AIMessage;
    try {
      response = await bound.invoke([...conversation, ...added], { signal: input.signal });
    } catch (error) {
      stopForError(error);
      return { messages: added };
    }
    steps++;
    const tokens = tokensOf(response);
    tokensUsed += tokens.inputTokens + tokens.outputTokens;
    recorder.modelCall(tokens, input.costUsd(tokens), Math.max(0, now() - started));
    input.onProgress?.();

    const text = messageText(response);
    const valid = response.tool_calls ?? [];
    const invalid = response.invalid_tool_calls ?? [];
    const withIds = assignIds(valid, invalid, steps);
    const reasoning = reasoningOf(response);
    recorder.message({
      role: "assistant",
      content: text,
      // Kept as its own field: shown to the critic as reasoning, never read as the answer.
      ...(reasoning ? { reasoning } : {}),
      ...(withIds.length > 0
        ? { toolCalls: withIds.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments })) }
        : {}),
    });
    const boxed = extractBoxedAnswer(text);
    if (boxed !== null) lastBoxed = boxed;

    if (withIds.length === 0 && input.user) {
      // A plain message in a conversation goes to the user; the rollout ends when the user ends it.
      finalAnswer = text;
      if (userTurns >= input.user.maxTurns) {
        recorder.stop(
          "max_steps",
          `the conversation reached its limit of ${input.user.maxTurns} user replies`,
        );
        return { messages: [...added, response] };
      }
      let reply: Awaited<ReturnType<UserConversation["reply"]>>;
      try {
        reply = await input.user.conversation.reply(text, input.signal);
      } catch (error) {
        stopForError(error);
        return { messages: [...added, response] };
      }
      userTurns++;
      recorder.message({ role: "user", content: reply.text });
      if (reply.ended) {
        recorder.stop("answered");
        return { messages: [...added, response] };
      }
      userSpoke = true;
      return { messages: [...added, response, new HumanMessage(reply.text)] };
    }
    if (withIds.length === 0) {
      // A final message. Its own box wins; a box from an earlier message still counts as the answer (a model that
      // boxed its answer while verifying, then closed with "Done.").
      finalAnswer = boxed ?? lastBoxed;
      if (finalAnswer !== null) recorder.stop("answered");
      else if (finishReason(response) === "length") {
        recorder.stop(
          "max_tokens",
          "the model's answer was cut off at its output token limit before \\boxed{}",
        );
      } else recorder.stop("no_answer", "the model ended without a final answer in \\boxed{...}");
      return { messages: [...added, response] };
    }
    if (tokensUsed >= config.maxTokens) {
      recorder.stop("max_tokens", `the rollout used ${tokensUsed} tokens (limit ${config.maxTokens})`);
    }
    // ChatOpenAI sends back only the parsed tool calls of a message when it has any, which would orphan the tool
    // messages answering malformed ones; the raw calls are kept instead so the history stays valid.
    // Rebuilt where the provider's own message would not pair with the results: a malformed call, or an id we had
    // to assign (empty or repeated).
    const renamed = valid.some((call, index) => withIds[index]!.id !== call.id);
    const history = invalid.length > 0 || renamed ? withRawToolCalls(response, withIds) : response;
    pending = withIds;
    return { messages: [...added, history] };
  };

  const toolsNode = async () => {
    const replies: ToolMessage[] = [];
    let refused = 0;
    for (const call of pending) {
      if (input.signal.aborted) break;
      const reply = (
        content: string,
        record?: { input: unknown; error?: string; errorCode?: string; durationMs: number },
      ) => {
        const forModel = truncateText(content, config.toolOutputModelChars).text;
        replies.push(new ToolMessage({ content: forModel, tool_call_id: call.id, name: call.name }));
        recorder.message({ role: "tool", content: forModel, toolCallId: call.id, name: call.name });
        if (record) {
          recorder.toolCall({
            id: call.id,
            name: call.name,
            input: record.input,
            output: content,
            durationMs: record.durationMs,
            ...(record.error === undefined ? {} : { error: record.error }),
            ...(record.errorCode === undefined ? {} : { errorCode: record.errorCode }),
          });
        }
      };

      if (call.parseError !== undefined) {
        const error = `arguments are not valid JSON (${call.parseError}); send a JSON object matching the tool's schema`;
        reply(`Error: ${error}`, { input: call.arguments, error, durationMs: 0 });
        continue;
      }
      const tool = toolsByName.get(call.name);
      if (!tool) {
        const available = [...toolsByName.keys()];
        const error = `unknown tool "${call.name}"; available: ${available.length > 0 ? available.join(", ") : "none"}`;
        reply(`Error: ${error}`, { input: call.args, error, durationMs: 0 });
        continue;
      }
      if (toolCallsMade >= config.maxToolCalls) {
        refused++;
        reply(
          `Tool call refused: the limit of ${config.maxToolCalls} tool calls is reached. ` +
            "Do not call tools again; give your final answer now as \\boxed{answer}.",
        );
        continue;
      }
      const key = `${call.name}\u0000${stableStringify(call.args)}`;
      const previous = callCounts.get(key);
      const at = callIndex++;
      const fresh = previous === undefined || lastNewCall > previous.at;
      if (previous === undefined) lastNewCall = at;
      const repeats = fresh ? 1 : previous.repeats + 1;
      if (repeats >= config.repeatedCallLimit) {
        recorder.stop(
          "no_answer",
          `loop: the model made the identical ${call.name} call ${repeats} times (limit ${config.repeatedCallLimit})`,
        );
        reply("Error: identical call repeated; the rollout is stopped.");
        break;
      }

      toolCallsMade++;
      const started = now();
      let output: string;
      let error: string | undefined;
      let errorCode: string | undefined;
      try {
        output = await tracedToolCall(call.name, async () =>
          stringifyOutput(await tool.invoke(call.args as never, { signal: input.signal })),
        );
      } catch (thrown) {
        // Coded, so the run can tell a sandbox that could not run from code that failed (isSandboxUnavailable).
        if (TfgrpoError.isInstance(thrown)) errorCode = thrown.code;
        error = TfgrpoError.hasCode(thrown, "sandbox_unavailable")
          ? `${sandboxUnavailablePrefix} ${describe(thrown)}`
          : TfgrpoError.hasCode(thrown, "environment_unavailable")
            ? `${environmentUnavailablePrefix} ${describe(thrown)}`
            : describe(thrown);
        output = `Error: ${error}`;
        if (TfgrpoError.hasCode(thrown, "environment_unavailable") && !input.signal.aborted) {
          // The attempt's server died or hung: the attempt says nothing about the task, whatever the model does next.
          recorder.toolCall({
            id: call.id,
            name: call.name,
            input: call.args,
            output,
            error,
            durationMs: Math.max(0, now() - started),
          });
          recorder.stop("environment_error", describe(thrown));
          break;
        }
      }
      if (input.signal.aborted) break;
      const same = previous !== undefined && previous.output === output;
      callCounts.set(key, { repeats: same ? repeats : 1, output, at });
      let forModel = output;
      if (same)
        forModel = `Note: you already made this exact call; repeating it gives the same result.\n${forModel}`;
      if (toolCallsMade === config.maxToolCalls) {
        forModel += `\n[This was the last of ${config.maxToolCalls} allowed tool calls: answer now.]`;
      }
      reply(forModel, {
        input: call.args,
        durationMs: Math.max(0, now() - started),
        ...(error ? { error } : {}),
        ...(errorCode ? { errorCode } : {}),
      });
      input.onProgress?.();
    }
    if (refused > 0 && ++refusedRounds >= 2) {
      recorder.stop(
        "max_tool_calls",
        `the model kept calling tools after the limit of ${config.maxToolCalls} tool calls was reached`,
      );
    }
    pending = [];
    return { messages: replies };
  };

  const ended = () => Boolean(recorder.stopped) || input.signal.aborted;
  // agent -> tools -> agent ... as a plain loop: a LangGraph here cost 2-3 ms of the event loop per rollout (more than
  // everything else tfgrpo does around a model call) and added nothing a rollout needs; every way out of the loop is
  // decided by the agent and tools steps above, which record it on the recorder.
  const messages: BaseMessage[] = [new SystemMessage(input.system)];
  recorder.message({ role: "system", content: input.system });
  const open = async (): Promise<boolean> => {
    if (!input.user) {
      messages.push(new HumanMessage(input.question));
      recorder.message({ role: "user", content: input.question });
      return true;
    }
    const { conversation } = input.user;
    messages.push(new AIMessage(conversation.greeting));
    recorder.message({ role: "assistant", content: conversation.greeting });
    let first: Awaited<ReturnType<UserConversation["open"]>>;
    try {
      first = await conversation.open(input.signal);
    } catch (error) {
      stopForError(error);
      return false;
    }
    messages.push(new HumanMessage(first.text));
    recorder.message({ role: "user", content: first.text });
    if (first.ended) recorder.stop("no_answer", "the user ended the conversation before the agent spoke");
    return !first.ended;
  };
  const loop = async (): Promise<void> => {
    if (!(await open())) return;
    for (;;) {
      userSpoke = false;
      messages.push(...((await agent(messages)).messages ?? []));
      if (ended()) return;
      if (userSpoke) continue;
      if (pending.length === 0) return;
      messages.push(...(await toolsNode()).messages);
      if (ended()) return;
    }
  };

  // A tool or client that ignores the abort signal must not keep the rollout alive past its deadline.
  const onAbort = () => rejectAborted(input.signal.reason);
  let rejectAborted: (reason: unknown) => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    rejectAborted = reject;
    if (input.signal.aborted) reject(input.signal.reason);
    input.signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {});
  try {
    // One LangChain run around the rollout's model and tool calls, named and tagged for LangSmith when its tracing is
    // on (a RunnableLambda costs ~0.1 ms; its calls inherit the run through LangChain's async context).
    await Promise.race([
      RunnableLambda.from(loop).invoke(undefined, { signal: input.signal, ...(input.run ?? {}) }),
      aborted,
    ]);
  } catch (error) {
    stopForError(error);
  } finally {
    input.signal.removeEventListener("abort", onAbort);
  }
  if (!recorder.stopped) recorder.stop("error", "the agent loop ended without a stop reason");
  return { finalAnswer: recorder.stopped?.reason === "answered" ? finalAnswer : null };
}

interface PendingCall {
  id: string;
  name: string;
  args: unknown;
  /** The raw argument string as the model sent it. */
  arguments: string;
  parseError?: string;
}

function assignIds(valid: ToolCall[], invalid: InvalidToolCall[], step: number): PendingCall[] {
  const calls: PendingCall[] = [];
  // Providers send empty ids (`id: ""`) or repeat one: every call of a step gets a distinct, non-empty id, used both
  // in the assistant message sent back and in its tool result, so the two always pair.
  const taken = new Set<string>();
  const idFor = (given: string | undefined, fallback: string): string => {
    const id = given && !taken.has(given) ? given : fallback;
    taken.add(id);
    return id;
  };
  valid.forEach((call, index) => {
    calls.push({
      id: idFor(call.id, `call_${step}_${index}`),
      name: call.name,
      args: call.args,
      arguments: JSON.stringify(call.args ?? {}),
    });
  });
  invalid.forEach((call, index) => {
    calls.push({
      id: idFor(call.id, `call_${step}_invalid_${index}`),
      name: call.name ?? "(no name)",
      args: undefined,
      arguments: call.args ?? "",
      parseError: call.error ?? "could not parse the arguments",
    });
  });
  return calls;
}

/**
 * The message as history for the next call, carrying every call raw (`additional_kwargs.tool_calls`), as the
 * provider sent it. Set after construction: AIMessage's constructor warns on raw calls without parsed ones.
 */
function withRawToolCalls(response: AIMessage, calls: PendingCall[]): AIMessage {
  const { tool_calls: _raw, ...additional } = response.additional_kwargs;
  const message = new AIMessage({
    content: response.content,
    tool_calls: [],
    invalid_tool_calls: [],
    additional_kwargs: additional,
    response_metadata: response.response_metadata,
    ...(response.id ? { id: response.id } : {}),
  });
  message.additional_kwargs.tool_calls = calls.map((call) => ({
    id: call.id,
    type: "function" as const,
    function: { name: call.name, arguments: call.arguments },
  }));
  return message;
}

function tokensOf(message: AIMessage): CallTokens {
  const usage = message.usage_metadata;
  return {
    inputTokens: usage?.input_tokens ?? 0,
    cachedInputTokens: usage?.input_token_details?.cache_read ?? 0,
    // What the provider bills: reasoning reported beside the completion counts too (the models' ledger agrees).
    outputTokens: billedOutputTokens({
      prompt: usage?.input_tokens,
      completion: usage?.output_tokens,
      reasoning: usage?.output_token_details?.reasoning,
      total: usage?.total_tokens,
    }),
  };
}

/** The reasoning a provider returned beside the content (LangChain keeps it as `reasoning_content`). */
function reasoningOf(message: AIMessage): string | undefined {
  const value = message.additional_kwargs?.reasoning_content;
  return typeof value === "string" ? value : undefined;
}

function finishReason(message: AIMessage): string | undefined {
  const metadata = message.response_metadata as Record<string, unknown> | undefined;
  const reason = metadata?.finish_reason ?? metadata?.finishReason;
  return typeof reason === "string" ? reason : undefined;
}

function stringifyOutput(output: unknown): string {
  if (typeof output === "string") return output;
  if (output instanceof ToolMessage) return messageText(output);
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** JSON with sorted keys, so `{a, b}` and `{b, a}` count as the same call. */
function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableStringify(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}
