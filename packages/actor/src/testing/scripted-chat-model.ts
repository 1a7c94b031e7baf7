import type { BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { ActorModels, ChatOptions } from "../create-actor.js";

export interface ScriptedCall {
  messages: BaseMessage[];
  tools: string[];
  options: ChatOptions;
}

export type ChatScript = (
  messages: BaseMessage[],
  call: number,
  signal: AbortSignal | undefined,
) => AIMessage | Promise<AIMessage>;

/**
 * A chat model whose answers a test scripts, for unit tests of the agent loop without HTTP (the integration tests
 * use the sim's OpenAI-compatible server through the real client). Records every call's messages and bound tools.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly calls: ScriptedCall[];
  readonly #script: ChatScript;
  readonly #tools: string[];
  readonly #options: ChatOptions;
  readonly model = "scripted-model";

  constructor(
    script: ChatScript,
    options: ChatOptions = {},
    tools: string[] = [],
    calls: ScriptedCall[] = [],
  ) {
    super({} as BaseChatModelParams);
    this.#script = script;
    this.#options = options;
    this.#tools = tools;
    this.calls = calls;
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(tools: unknown[]) {
    const names = tools.map((tool) => (tool as StructuredToolInterface).name);
    return new ScriptedChatModel(this.#script, this.#options, names, this.calls) as never;
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    this.calls.push({ messages: [...messages], tools: this.#tools, options: this.#options });
    const message = await this.#script(messages, this.calls.length - 1, options.signal);
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

/** `models` for createActor backed by one script; `calls` lists every model call of every rollout. */
export function createScriptedModels(script: ChatScript): ActorModels & { calls: ScriptedCall[] } {
  const calls: ScriptedCall[] = [];
  return {
    calls,
    chat: (_role, options) => new ScriptedChatModel(script, options, [], calls),
  };
}

let counter = 0;

/** An assistant message calling tools, with usage numbers like a provider's. */
export function toolCallMessage(
  calls: { name: string; args: Record<string, unknown> }[],
  content = "",
  usage = { input: 100, output: 20 },
): AIMessage {
  return new AIMessage({
    content,
    tool_calls: calls.map((call) => ({
      id: `call_${++counter}`,
      name: call.name,
      args: call.args,
      type: "tool_call",
    })),
    usage_metadata: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  });
}

export function finalMessage(content: string, usage = { input: 150, output: 40 }): AIMessage {
  return new AIMessage({
    content,
    usage_metadata: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  });
}
