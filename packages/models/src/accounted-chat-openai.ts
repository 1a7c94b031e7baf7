import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { ChatModelStreamEvent } from "@langchain/core/language_models/event";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatGenerationChunk, ChatResult } from "@langchain/core/outputs";
import { ChatOpenAI, type ChatOpenAICallOptions, type ChatOpenAIFields } from "@langchain/openai";
import { linkAbortSignal } from "@tfgrpo/protocol";

export interface ChatHooks {
  /** Throws to refuse a call before anything is sent (the budget). */
  beforeCall(): void;
  /** Maps any error to the one callers get (redacted, TfgrpoError). */
  mapError(error: unknown, signal: AbortSignal | undefined): unknown;
  /** Whether the provider accepts `seed`; when it does not, a seed given per call is dropped. */
  supportsSeed: boolean;
}

/**
 * ChatOpenAI with tfgrpo's error mapping and budget check. Usage and retries are handled below it, in the fetch the
 * client is given, so they hold for every path LangChain may take (invoke, stream, stream events).
 * `withConfig` (which `bindTools` uses) is overridden because ChatOpenAI's own rebuilds a plain ChatOpenAI.
 */
export class AccountedChatOpenAI extends ChatOpenAI {
  readonly #hooks: ChatHooks;
  readonly #fields: ChatOpenAIFields;

  constructor(
    fields: ChatOpenAIFields,
    hooks: ChatHooks,
    defaultOptions: Partial<ChatOpenAICallOptions> = {},
  ) {
    super(fields);
    this.#fields = fields;
    this.#hooks = hooks;
    this.defaultOptions = { ...this.defaultOptions, ...defaultOptions };
  }

  override withConfig(config: Partial<ChatOpenAICallOptions>): AccountedChatOpenAI {
    return new AccountedChatOpenAI(this.#fields, this.#hooks, { ...this.defaultOptions, ...config });
  }

  // LangChain builds cache keys and `serialize()` from these, and they include the client config: drop the key.
  override _identifyingParams(): ReturnType<ChatOpenAI["_identifyingParams"]> {
    const { apiKey: _apiKey, ...rest } = super._identifyingParams();
    return rest;
  }

  // Providers other than OpenAI only speak Chat Completions; never switch to the Responses API by model name.
  protected override _useResponsesApi(): boolean {
    return false;
  }

  override async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    this.#hooks.beforeCall();
    using call = linkAbortSignal(options.signal);
    try {
      return await super._generate(messages, this.#forOneCall(options, call.signal), runManager);
    } catch (error) {
      throw this.#hooks.mapError(error, options.signal);
    }
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    this.#hooks.beforeCall();
    using call = linkAbortSignal(options.signal);
    try {
      yield* super._streamResponseChunks(messages, this.#forOneCall(options, call.signal), runManager);
    } catch (error) {
      throw this.#hooks.mapError(error, options.signal);
    }
  }

  override async *_streamChatModelEvents(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatModelStreamEvent> {
    this.#hooks.beforeCall();
    using call = linkAbortSignal(options.signal);
    try {
      yield* super._streamChatModelEvents(messages, this.#forOneCall(options, call.signal), runManager);
    } catch (error) {
      throw this.#hooks.mapError(error, options.signal);
    }
  }

  /**
   * The options of one call: a seed the provider refuses is dropped, and the caller's signal is replaced by one of
   * this call (the OpenAI SDK adds an abort listener per request to the signal it is given and never removes it).
   */
  #forOneCall(
    options: this["ParsedCallOptions"],
    signal: AbortSignal | undefined,
  ): this["ParsedCallOptions"] {
    const seed = this.#hooks.supportsSeed || options.seed === undefined ? {} : { seed: undefined };
    return { ...options, ...seed, ...(signal ? { signal } : {}) };
  }
}
