import {
  emptyUsageTotals,
  type Message,
  type ToolCallRecord,
  type Trajectory,
  trajectorySchema,
} from "@tfgrpo/protocol";
import { z } from "zod";

/** The plain JSON trajectory `@tfgrpo/langgraph`'s outcome hook reports (`messagesToTrajectory`). */
const plainMessagesSchema = z.array(
  z.object({
    role: z.string(),
    content: z.string(),
    name: z.string().optional(),
    toolCalls: z.array(z.object({ name: z.string(), args: z.unknown() })).optional(),
  }),
);

const roles: Record<string, Message["role"] | undefined> = {
  system: "system",
  human: "user",
  user: "user",
  ai: "assistant",
  assistant: "assistant",
  tool: "tool",
};

/**
 * A reported trajectory as the critic's stage-1 prompt reads it: a tfgrpo trajectory as it is, or the plain
 * messages a LangGraph client reported (tool results paired with the calls in order, as the agent made them).
 * Null for anything else (the outcome's summary or feedback is used instead).
 */
export function toCriticTrajectory(
  reported: unknown,
  context: { id: string; taskId: string; domain: string; version: number | null; reward: number },
): Trajectory | null {
  const full = trajectorySchema.safeParse(reported);
  if (full.success) return { ...full.data, reward: full.data.reward ?? context.reward };
  const plain = plainMessagesSchema.safeParse(reported);
  if (!plain.success || plain.data.length === 0) return null;
  const messages: Message[] = [];
  const toolCalls: ToolCallRecord[] = [];
  const pending: { id: string; name: string; input: unknown }[] = [];
  let calls = 0;
  for (const message of plain.data) {
    const role = roles[message.role];
    if (!role) continue;
    if (role === "assistant") {
      const requests = (message.toolCalls ?? []).map((call) => {
        const id = `call-${++calls}`;
        pending.push({ id, name: call.name, input: call.args });
        return { id, name: call.name, arguments: JSON.stringify(call.args ?? {}) };
      });
      messages.push({
        role,
        content: message.content,
        ...(requests.length > 0 ? { toolCalls: requests } : {}),
      });
    } else if (role === "tool") {
      const call = pending.shift();
      const id = call?.id ?? `call-${++calls}`;
      toolCalls.push({
        id,
        name: call?.name ?? message.name ?? "tool",
        input: call?.input ?? null,
        output: message.content,
        truncated: false,
        durationMs: 0,
      });
      messages.push({ role, content: message.content, toolCallId: id });
    } else messages.push({ role, content: message.content });
  }
  const final = [...messages].reverse().find((m) => m.role === "assistant" && m.content.trim() !== "");
  return {
    id: context.id,
    runId: "online",
    taskId: context.taskId,
    groupId: context.taskId,
    attempt: 0,
    domain: context.domain,
    libraryVersion: context.version,
    messages,
    toolCalls,
    finalAnswer: final?.content ?? null,
    reward: context.reward,
    experiencesShown: [],
    experiencesCited: [],
    usage: emptyUsageTotals(),
    latencyMs: 0,
    stopReason: final ? "answered" : "no_answer",
  };
}
