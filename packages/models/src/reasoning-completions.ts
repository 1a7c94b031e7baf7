import { AsyncLocalStorage } from "node:async_hooks";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { ChatModelStreamEvent } from "@langchain/core/language_models/event";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatGenerationChunk, ChatResult } from "@langchain/core/outputs";
import { ChatOpenAICompletions } from "@langchain/openai";

/** Where an assistant message keeps the reasoning the provider returned beside its content (LangChain's name). */
export const reasoningKey = "reasoning_content";

/** The reasoning an AIMessage carries (`additional_kwargs.reasoning_content`), if the provider sent any. */
export function reasoningOf(message: BaseMessage): string | undefined {
  const value = message.additional_kwargs?.[reasoningKey];
  return typeof value === "string" ? value : undefined;
}

type CompletionRequest = Parameters<ChatOpenAICompletions["completionWithRetry"]>[0];

/**
 * Chat Completions for LangChain that sends an assistant message's reasoning back with it. Reasoning models in
 * thinking mode with tools (DeepSeek's, documented) return `reasoning_content` beside `tool_calls` and refuse, with a
 * 400, any later request whose assistant tool-call messages lack it; LangChain reads the field but never writes it.
 * The messages of each call are kept for the duration of the call (per call, so concurrent calls never mix), and the
 * reasoning is put on the matching assistant entries of the request, even when empty (an omitted empty one is refused
 * as well). The field is renamed for providers that use `reasoning` by the provider fetch below.
 */
/**
 * The messages of the call in progress, shared by every instance: one is made per `models.chat()` (per rollout), and
 * on Node 20 each AsyncLocalStorage ever used stays enabled and is visited on every promise the process creates,
 * so one storage per instance made every later promise slower (in 256 direct-mode rollouts the runner's CPU fell from
 * 12.5 s to 5.7 s with one shared storage). A call's own `run` scope keeps concurrent calls apart all the same.
 */
const callHistory = new AsyncLocalStorage<readonly BaseMessage[]>();

/**
 * Where the chat models of one role keep their OpenAI client. The SDK client is built on first use and is the same for
 * every model of a role (same endpoint, key, fetch and timeout); building one per `models.chat()` (per rollout) cost
 * about 3 ms of the event loop each, more than the rest of a call's client-side work.
 */
export interface SharedChatClient {
  client?: ChatOpenAICompletions["client"];
}

export class ReasoningCompletions extends ChatOpenAICompletions {
  readonly #history = callHistory;
  readonly #shared: SharedChatClient | undefined;

  constructor(fields: ConstructorParameters<typeof ChatOpenAICompletions>[0], shared?: SharedChatClient) {
    super(fields);
    this.#shared = shared;
  }

  override _getClientOptions(
    options: Parameters<ChatOpenAICompletions["_getClientOptions"]>[0],
  ): ReturnType<ChatOpenAICompletions["_getClientOptions"]> {
    // `client` is declared by the parent but only assigned on first use: take the role's, or give ours to the role.
    if (this.#shared?.client && !this.client) this.client = this.#shared.client;
    const clientOptions = super._getClientOptions(options);
    if (this.#shared) this.#shared.client ??= this.client;
    return clientOptions;
  }

  override _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    return this.#history.run(messages, () => super._generate(messages, options, runManager));
  }

  override _streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    return this.#within(messages, super._streamResponseChunks(messages, options, runManager));
  }

  override _streamChatModelEvents(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatModelStreamEvent> {
    return this.#within(messages, super._streamChatModelEvents(messages, options, runManager));
  }

  // biome-ignore lint/suspicious/noExplicitAny: the overloads of the parent (streaming or not) are kept as they are
  override completionWithRetry(request: any, requestOptions?: any): any {
    const history = this.#history.getStore();
    const next = history ? withReasoning(request as CompletionRequest, history) : request;
    return super.completionWithRetry(next, requestOptions);
  }

  // A generator's body runs in the context of whoever calls next(): each step is run inside the call's context.
  async *#within<T>(messages: readonly BaseMessage[], inner: AsyncGenerator<T>): AsyncGenerator<T> {
    try {
      for (;;) {
        const step = await this.#history.run(messages, () => inner.next());
        if (step.done) return;
        yield step.value;
      }
    } finally {
      await inner.return(undefined);
    }
  }
}

/** The request with each assistant entry carrying the reasoning of the AIMessage it was made from. */
function withReasoning(request: CompletionRequest, history: readonly BaseMessage[]): CompletionRequest {
  const assistants = history.filter((message) => AIMessage.isInstance(message));
  if (!assistants.some((message) => reasoningOf(message) !== undefined)) return request;
  const entries = request.messages.filter((entry) => entry.role === "assistant");
  // One entry per AIMessage unless LangChain split one (audio); then pairing by position would be a guess.
  if (entries.length !== assistants.length) return request;
  let position = 0;
  const messages = request.messages.map((entry) => {
    if (entry.role !== "assistant") return entry;
    const reasoning = reasoningOf(assistants[position++] as BaseMessage);
    return reasoning === undefined ? entry : { ...entry, [reasoningKey]: reasoning };
  });
  return { ...request, messages };
}
