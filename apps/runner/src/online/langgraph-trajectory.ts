import type { BaseMessage } from "@langchain/core/messages";
import {
  emptyUsageTotals,
  type Message,
  type StopReason,
  type ToolCallRecord,
  type Trajectory,
} from "@tfgrpo/protocol";

const maxToolOutput = 4000;

function textOf(message: BaseMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content
    .map((part) =>
      typeof part === "string" ? part : "text" in part && typeof part.text === "string" ? part.text : "",
    )
    .join("");
}

export interface ToTrajectoryInput {
  id: string;
  runId: string;
  taskId: string;
  domain: string;
  libraryVersion: number | null;
  messages: readonly BaseMessage[];
  experiencesShown: string[];
  latencyMs: number;
  reward?: number;
  stopReason?: StopReason;
}

/**
 * A LangGraph agent's messages as a protocol trajectory, so the critic's stage-1 summary can read what the agent
 * did (its code, tool outputs and answer) the way it reads the project's own actor. Tool outputs are cut for
 * storage; the final answer is the last assistant text.
 */
export function langGraphTrajectory(input: ToTrajectoryInput): Trajectory {
  const messages: Message[] = [];
  const toolCalls: ToolCallRecord[] = [];
  const pending = new Map<string, { name: string; input: unknown }>();
  for (const message of input.messages) {
    const type = message.getType();
    const content = textOf(message);
    if (type === "system") messages.push({ role: "system", content });
    else if (type === "human") messages.push({ role: "user", content });
    else if (type === "ai") {
      const calls =
        ("tool_calls" in message
          ? (message.tool_calls as { id?: string; name: string; args: unknown }[])
          : []) ?? [];
      const requests = calls.map((call, index) => {
        const id = call.id ?? `${input.id}-call-${messages.length}-${index}`;
        pending.set(id, { name: call.name, input: call.args });
        return { id, name: call.name, arguments: JSON.stringify(call.args ?? {}) };
      });
      messages.push({ role: "assistant", content, ...(requests.length > 0 ? { toolCalls: requests } : {}) });
    } else if (type === "tool") {
      const id = "tool_call_id" in message ? String(message.tool_call_id) : "";
      const call = pending.get(id);
      const truncated = content.length > maxToolOutput;
      toolCalls.push({
        id,
        name: call?.name ?? ("name" in message && typeof message.name === "string" ? message.name : "tool"),
        input: call?.input ?? null,
        output: truncated ? content.slice(0, maxToolOutput) : content,
        truncated,
        durationMs: 0,
      });
      messages.push({
        role: "tool",
        content: truncated ? content.slice(0, maxToolOutput) : content,
        toolCallId: id,
      });
    }
  }
  const finalAnswer = [...messages].reverse().find((m) => m.role === "assistant" && m.content.trim() !== "");
  return {
    id: input.id,
    runId: input.runId,
    taskId: input.taskId,
    groupId: input.taskId,
    attempt: 0,
    domain: input.domain,
    libraryVersion: input.libraryVersion,
    messages,
    toolCalls,
    finalAnswer: finalAnswer?.content ?? null,
    ...(input.reward !== undefined ? { reward: input.reward } : {}),
    experiencesShown: input.experiencesShown,
    experiencesCited: [
      ...new Set([...(finalAnswer?.content ?? "").matchAll(/\[(G\d+)\]/g)].map((m) => m[1]!)),
    ].filter((id) => input.experiencesShown.includes(id)),
    usage: emptyUsageTotals(),
    latencyMs: input.latencyMs,
    stopReason: input.stopReason ?? (finalAnswer ? "answered" : "no_answer"),
  };
}
