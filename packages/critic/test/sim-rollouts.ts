import {
  type ExperienceLine,
  emptyUsageTotals,
  type Message,
  type Task,
  type ToolCallRecord,
  type Trajectory,
  trajectorySchema,
} from "@tfgrpo/protocol";
import { runSimEpisode } from "@tfgrpo/sim/testing";
import type OpenAI from "openai";

/**
 * Rollouts as the actor would produce them, against the sim server: the sim policy answers an actor-shaped prompt,
 * its Python really runs (plain child_process, the sim's test helper), and the conversation becomes a protocol
 * Trajectory. Test support only: the critic never depends on the sim.
 */
export async function simGroup(options: {
  client: OpenAI;
  task: Task;
  runId: string;
  groupId: string;
  size: number;
  experiences?: readonly ExperienceLine[];
  /** Request seeds are seed + attempt, as the runner derives one per attempt. */
  seed: number;
}): Promise<Trajectory[]> {
  const experiences = options.experiences ?? [];
  const attempts = Array.from({ length: options.size }, (_, attempt) => attempt);
  return Promise.all(
    attempts.map(async (attempt) => {
      const episode = await runSimEpisode({
        client: options.client,
        question: options.task.question,
        ...(options.task.answer !== undefined ? { answer: options.task.answer } : {}),
        experiences,
        seed: options.seed + attempt,
      });
      const messages: Message[] = [];
      const toolCalls: ToolCallRecord[] = [];
      for (const message of episode.messages) {
        const content = typeof message.content === "string" ? message.content : "";
        if (message.role === "assistant") {
          const calls = (message.tool_calls ?? []).flatMap((call) =>
            call.type === "function"
              ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }]
              : [],
          );
          messages.push({ role: "assistant", content, ...(calls.length > 0 ? { toolCalls: calls } : {}) });
        } else if (message.role === "tool") {
          messages.push({ role: "tool", content, toolCallId: message.tool_call_id });
        } else if (message.role === "system" || message.role === "user") {
          messages.push({ role: message.role, content });
        }
      }
      for (const message of messages) {
        for (const call of message.toolCalls ?? []) {
          const output =
            messages.find((other) => other.role === "tool" && other.toolCallId === call.id)?.content ?? "";
          toolCalls.push({
            id: call.id,
            name: call.name,
            input: JSON.parse(call.arguments),
            output,
            truncated: false,
            durationMs: 1,
          });
        }
      }
      return trajectorySchema.parse({
        id: `${options.groupId}:a${attempt}`,
        runId: options.runId,
        taskId: options.task.id,
        groupId: options.groupId,
        attempt,
        messages,
        toolCalls,
        finalAnswer: episode.finalAnswer,
        experiencesShown: experiences.map((experience) => experience.id),
        experiencesCited: episode.cited,
        usage: emptyUsageTotals(),
        latencyMs: 1,
        stopReason: episode.finalAnswer === null ? "max_steps" : "answered",
      });
    }),
  );
}
