import {
  addUsage,
  emptyUsageTotals,
  type Message,
  type StopReason,
  type ToolCallRecord,
  type UsageTotals,
} from "@tfgrpo/protocol";
import { truncateText } from "./truncate-text.js";

export interface CallTokens {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

/**
 * What one rollout did, as it happens: kept outside the LangGraph state so that a rollout cut short (timeout,
 * abort) still yields everything recorded up to that point. Every string passes through `redact` on the way in,
 * so nothing secret is ever held, let alone stored.
 */
export interface RolloutRecorder {
  message(message: Message): void;
  toolCall(record: Omit<ToolCallRecord, "output" | "truncated"> & { output: string }): ToolCallRecord;
  modelCall(tokens: CallTokens, costUsd: number, latencyMs: number): void;
  /** The first stop wins: later causes (an abort after a limit) do not overwrite the reason. */
  stop(reason: StopReason, error?: string): void;
  /** Overrides any earlier stop: an environment that failed after the loop makes the attempt infrastructure. */
  fail(reason: StopReason, error: string): void;
  readonly stopped: { reason: StopReason; error?: string } | null;
  readonly messages: readonly Message[];
  readonly toolCalls: readonly ToolCallRecord[];
  readonly usage: UsageTotals;
}

export function createRolloutRecorder(options: {
  storedChars: number;
  redact: (text: string) => string;
}): RolloutRecorder {
  const messages: Message[] = [];
  const toolCalls: ToolCallRecord[] = [];
  let usage = emptyUsageTotals();
  let stopped: { reason: StopReason; error?: string } | null = null;
  const { redact } = options;

  return {
    message(message) {
      const content =
        message.role === "tool" ? truncateText(message.content, options.storedChars).text : message.content;
      messages.push({
        ...message,
        content: redact(content),
        ...(message.reasoning !== undefined ? { reasoning: redact(message.reasoning) } : {}),
        ...(message.toolCalls
          ? {
              toolCalls: message.toolCalls.map((call) => ({
                ...call,
                name: redact(call.name),
                arguments: redact(call.arguments),
              })),
            }
          : {}),
      });
    },
    toolCall(record) {
      const { text, truncated } = truncateText(record.output, options.storedChars);
      const stored: ToolCallRecord = {
        ...record,
        name: redact(record.name),
        input: redactDeep(record.input, redact),
        output: redact(text),
        truncated,
        ...(record.error === undefined ? {} : { error: redact(record.error) }),
      };
      toolCalls.push(stored);
      return stored;
    },
    modelCall(tokens, costUsd, latencyMs) {
      usage = addUsage(usage, { ...tokens, calls: 1, costUsd, latencyMs });
    },
    stop(reason, error) {
      if (stopped) return;
      stopped = error === undefined ? { reason } : { reason, error: redact(error) };
    },
    fail(reason, error) {
      stopped = { reason, error: redact(error) };
    },
    get stopped() {
      return stopped;
    },
    get messages() {
      return messages;
    },
    get toolCalls() {
      return toolCalls;
    },
    get usage() {
      return usage;
    },
  };
}

function redactDeep(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactDeep(item, redact)]));
  }
  return value;
}
