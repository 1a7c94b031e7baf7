import { type Message, TfgrpoError, type ToolCallRecord } from "@tfgrpo/protocol";
import type { AgentRunRecord } from "./agent-run-record.js";
import { type AiSdkMessage, runAiSdkAgent } from "./ai-sdk-agent-run.js";
import { type AgentFunction, type AgentFunctionInput, functionAgentRecord } from "./function-agent-run.js";
import { runLangChainAgent } from "./langchain-agent-run.js";
import { type LoadedAgent, recognizeAgent } from "./load-agent-module.js";
import { runOpenAIAgent } from "./openai-agents-agent-run.js";

/** What every turn of an attempt shares: where the module is, and how the agent is called. */
export interface AgentSessionContext {
  file: string;
  /** The attempt's input to a module's function, less `messages` (set per turn). */
  input: Omit<AgentFunctionInput, "messages">;
  threadId: string;
  signal: AbortSignal;
  recursionLimit: number;
  storedChars: number;
}

export interface AgentTurn {
  /** The whole conversation so far, in trajectory terms (it ends with the agent's reply). */
  record: AgentRunRecord;
  /** What the agent said last this turn: its answer, or its message to the user. */
  reply: string;
}

/**
 * One attempt of a team's agent, turn by turn: each turn the user speaks (the task, or the user role's message) and
 * the agent runs on the conversation so far, kept in its own framework's terms (a `createAgent` agent's state
 * messages, the AI SDK's messages). A module's function is called each turn until it returns an agent, which then
 * runs the rest: a per-attempt factory returns one on the first call.
 */
export interface AgentSession {
  /** The kind of agent that answered the last turn (`langchain`, `ai-sdk`, `function`). */
  readonly kind: LoadedAgent["kind"];
  turn(userText: string): Promise<AgentTurn>;
}

/** A session that starts after `opening` (the greeting of a conversation; empty for a one-shot task). */
export function startAgentSession(
  agent: LoadedAgent,
  opening: readonly Message[],
  context: AgentSessionContext,
): AgentSession {
  let current: LoadedAgent = agent;
  // The conversation in tfgrpo's terms, while a function answers (an agent started later begins from it).
  let conversation: Message[] = [...opening];
  const functionCalls: ToolCallRecord[] = [];
  let langChainMessages: unknown[] | undefined;
  let aiSdkMessages: AiSdkMessage[] | undefined;
  const aiSdkUsage = { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
  let openAIHistory: unknown[] | undefined;

  const agentTurn = async (ready: Exclude<LoadedAgent, { kind: "function" }>): Promise<AgentTurn> => {
    if (ready.kind === "langchain") {
      langChainMessages ??= conversation.map(({ role, content }) => ({ role, content }));
      const ran = await runLangChainAgent(ready.agent, {
        messages: langChainMessages,
        threadId: context.threadId,
        signal: context.signal,
        recursionLimit: context.recursionLimit,
        storedChars: context.storedChars,
      });
      langChainMessages = ran.messages;
      return { record: ran.record, reply: lastAssistantText(ran.record) };
    }
    if (ready.kind === "openai-agents") {
      // The SDK's own history carries the turns before; the first turn is the task (or the conversation's messages).
      const said = conversation.at(-1)?.content ?? "";
      const input =
        openAIHistory !== undefined
          ? [...openAIHistory, { role: "user", content: said }]
          : conversation.length === 1
            ? said
            : conversation.map(({ role, content }) =>
                role === "assistant"
                  ? { role, status: "completed", content: [{ type: "output_text", text: content }] }
                  : { role, content },
              );
      const ran = await runOpenAIAgent(ready.agent, {
        input,
        signal: context.signal,
        storedChars: context.storedChars,
      });
      openAIHistory = ran.history;
      return { record: ran.record, reply: ran.record.text };
    }
    aiSdkMessages ??= conversation.map(({ role, content }) => ({ role, content }));
    const ran = await runAiSdkAgent(ready.agent, {
      messages: aiSdkMessages,
      signal: context.signal,
      storedChars: context.storedChars,
    });
    aiSdkMessages = ran.messages;
    // Each run counts its own calls; the conversation's are their sum.
    for (const key of Object.keys(aiSdkUsage) as Array<keyof typeof aiSdkUsage>)
      aiSdkUsage[key] += ran.record.usage?.[key] ?? 0;
    return { record: { ...ran.record, usage: { ...aiSdkUsage } }, reply: ran.record.text };
  };

  return {
    get kind() {
      return current.kind;
    },
    async turn(userText) {
      const said: Message = { role: "user", content: userText };
      if (current.kind !== "function") {
        if (current.kind === "langchain") langChainMessages?.push(said);
        else if (current.kind === "ai-sdk") aiSdkMessages?.push(said);
        conversation.push(said);
        return agentTurn(current);
      }
      conversation.push(said);
      const input: AgentFunctionInput = { ...context.input, messages: [...conversation] };
      const value = await callModuleFunction(current.agent, input, context.file);
      const ready = recognizeAgent(value);
      if (ready) {
        // A per-attempt factory: the agent it built answers this turn and the rest.
        current = ready;
        return agentTurn(ready);
      }
      const record = functionAgentRecord(value, input, {
        file: context.file,
        storedChars: context.storedChars,
      });
      conversation = record.messages;
      functionCalls.push(...record.toolCalls);
      return {
        record: { ...record, toolCalls: [...functionCalls] },
        reply: record.answer ?? record.text,
      };
    },
  };
}

/** The agent's last message of the turn, when it ended with one (a turn that ends on a tool result says nothing). */
function lastAssistantText(record: AgentRunRecord): string {
  const last = record.messages.at(-1);
  return last?.role === "assistant" ? last.content : "";
}

/**
 * The module's function, whose failure names the module: an error of the environment stays the environment's (an
 * infrastructure failure), any other is the module's.
 */
async function callModuleFunction(agent: AgentFunction, input: AgentFunctionInput, file: string) {
  try {
    return await agent(input);
  } catch (error) {
    if (TfgrpoError.hasCode(error, "environment_unavailable") || input.signal.aborted) throw error;
    throw new TfgrpoError(
      TfgrpoError.isInstance(error) ? error.code : "internal",
      `${file}: the agent function failed: ${(error as Error)?.message ?? String(error)}`,
      { cause: error, details: { file } },
    );
  }
}
