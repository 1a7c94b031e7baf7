import type { Trajectory } from "@tfgrpo/protocol";
import { truncateText } from "./truncate-text.js";

export interface FormatTrajectoryOptions {
  /** Print the system prompt in full (it is long: role, tools, every shown experience). */
  showSystemPrompt?: boolean;
  /** Tool outputs and long messages are cut to this many characters. */
  maxChars?: number;
}

/** A trajectory as a person reads it in a terminal: the exchange in order, then the outcome and its cost. */
export function formatTrajectory(trajectory: Trajectory, options: FormatTrajectoryOptions = {}): string {
  const maxChars = options.maxChars ?? 1500;
  const cut = (text: string) => truncateText(text, maxChars).text;
  const lines: string[] = [];
  const field = (name: string, value: string) => lines.push(`${name.padEnd(10)} ${value}`);
  const rule = (title: string) => lines.push("", `── ${title} ${"─".repeat(Math.max(3, 60 - title.length))}`);

  field("task", `${trajectory.taskId}${trajectory.domain ? ` (${trajectory.domain})` : ""}`);
  const version = trajectory.libraryVersion;
  field(
    "library",
    version === null || version === undefined
      ? "none"
      : `${trajectory.domain ?? "?"}@v${version}, ${trajectory.experiencesShown.length} experiences shown`,
  );
  if (trajectory.model) field("model", trajectory.model);

  let step = 0;
  const durations = new Map(trajectory.toolCalls.map((call) => [call.id, call]));
  for (const message of trajectory.messages) {
    if (message.role === "system") {
      if (options.showSystemPrompt) {
        rule("system");
        lines.push(message.content);
      } else {
        rule("system");
        lines.push(`(${message.content.length} characters; --show-prompt prints it)`);
      }
    } else if (message.role === "user") {
      rule("user");
      lines.push(cut(message.content));
    } else if (message.role === "assistant") {
      rule(`assistant, step ${++step}`);
      if (message.reasoning?.trim()) lines.push(`(reasoning) ${cut(message.reasoning)}`);
      if (message.content.trim()) lines.push(cut(message.content));
      for (const call of message.toolCalls ?? []) lines.push(`  → ${call.name} ${cut(call.arguments)}`);
    } else {
      const record = message.toolCallId ? durations.get(message.toolCallId) : undefined;
      const suffix = record ? ` (${Math.round(record.durationMs)} ms${record.error ? ", error" : ""})` : "";
      rule(`tool ${message.name ?? ""}${suffix}`);
      lines.push(cut(message.content));
    }
  }

  lines.push("");
  field("answer", trajectory.finalAnswer ?? "(none)");
  field("stop", trajectory.stopReason + (trajectory.error ? `: ${trajectory.error}` : ""));
  field("shown", trajectory.experiencesShown.length > 0 ? trajectory.experiencesShown.join(" ") : "(none)");
  field("cited", trajectory.experiencesCited.length > 0 ? trajectory.experiencesCited.join(" ") : "(none)");
  const usage = trajectory.usage;
  field(
    "usage",
    `${usage.calls} model calls, ${usage.inputTokens} input tokens (${usage.cachedInputTokens} cached), ` +
      `${usage.outputTokens} output tokens, $${usage.costUsd.toFixed(6)}`,
  );
  field(
    "time",
    `${(trajectory.latencyMs / 1000).toFixed(2)} s (model ${(usage.latencyMs / 1000).toFixed(2)} s)`,
  );
  return lines.join("\n");
}
