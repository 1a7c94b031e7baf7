import type { ExperienceLine, Trajectory } from "@tfgrpo/protocol";
import { escapeMarkers } from "./escape-markers.js";
import { renderReasoning } from "./render-reasoning.js";

export interface RenderTrajectoryOptions {
  /** Current experience lines, to show the text of the entries the rollout was shown. */
  experiences?: readonly ExperienceLine[];
  /** Tool outputs longer than this keep their head and tail (default 3000 characters). */
  maxToolOutputChars?: number;
  /** Assistant messages longer than this keep their head and tail (default 12000 characters). */
  maxMessageChars?: number;
  /**
   * The whole rendering at most this long, its middle cut with a mark: for trajectories clients reported
   * (`dataLimits.trajectory`), which may hold any number of messages. Default: no cap.
   */
  maxChars?: number;
}

/** One experience line as the prompt contract writes it everywhere: `[G3]. text`. */
export function experienceLine(experience: ExperienceLine): string {
  return `[${experience.id}]. ${experience.text}`;
}

/**
 * A trajectory as the critic's summary prompt shows it (prompt contract, stage 1): the experiences shown, the
 * problem, then in order every assistant message's text and every tool call with its arguments verbatim and its
 * output (long outputs cut in the middle, so both the start and the final error lines stay), then the final answer.
 */
export function renderTrajectory(trajectory: Trajectory, options: RenderTrajectoryOptions = {}): string {
  const maxOutput = options.maxToolOutputChars ?? 3000;
  const maxMessage = options.maxMessageChars ?? 12_000;
  const lines: string[] = [];
  const known = new Map((options.experiences ?? []).map((experience) => [experience.id, experience]));

  if (trajectory.experiencesShown.length === 0) lines.push("Experiences shown to the agent: none");
  else {
    lines.push("Experiences shown to the agent:");
    for (const id of trajectory.experiencesShown) {
      const experience = known.get(id);
      lines.push(experience ? experienceLine(experience) : `[${id}]. (no longer in the library)`);
    }
  }

  const records = new Map(trajectory.toolCalls.map((record) => [record.id, record]));
  const rendered = new Set<string>();
  let step = 0;
  let sawQuestion = false;
  const renderOutput = (id: string, fallback?: string) => {
    const record = records.get(id);
    const output = record?.output ?? fallback ?? "(no output recorded)";
    const cut = record?.truncated ? " (stored truncated)" : "";
    lines.push(`Output${cut}:`, cutMiddle(output, maxOutput));
    if (record?.error) lines.push(`Tool error: ${record.error}`);
    rendered.add(id);
  };

  for (const message of trajectory.messages) {
    if (message.role === "system") continue;
    if (message.role === "user") {
      lines.push("", sawQuestion ? "User:" : "Problem:", message.content);
      sawQuestion = true;
      continue;
    }
    if (message.role === "tool") {
      const id = message.toolCallId ?? "";
      if (!rendered.has(id)) {
        lines.push(
          `Tool output${message.name ? ` (${message.name})` : ""}:`,
          cutMiddle(message.content, maxOutput),
        );
        rendered.add(id);
      }
      continue;
    }
    step++;
    lines.push("", `Step ${step} (assistant):`, ...renderReasoning(message.reasoning));
    if (message.content.trim() !== "") lines.push(cutMiddle(message.content, maxMessage));
    for (const call of message.toolCalls ?? []) {
      lines.push(`Tool call ${call.name}:`, `Arguments: ${call.arguments}`);
      const reply = trajectory.messages.find(
        (other) => other.role === "tool" && other.toolCallId === call.id,
      );
      renderOutput(call.id, reply?.content);
    }
  }
  // Tool calls recorded without a message that issued them (a trajectory stored without its messages).
  for (const record of trajectory.toolCalls) {
    if (rendered.has(record.id)) continue;
    lines.push("", `Tool call ${record.name}:`, `Arguments: ${stringify(record.input)}`);
    renderOutput(record.id);
  }

  if (trajectory.environment) lines.push("", ...renderEnvironment(trajectory.environment, maxOutput));
  lines.push(
    "",
    `Final answer: ${trajectory.finalAnswer ?? "(none)"}`,
    `Stop reason: ${trajectory.stopReason}`,
  );
  if (trajectory.error) lines.push(`Error: ${trajectory.error}`);
  const text = lines.join("\n").trim();
  return escapeMarkers(options.maxChars === undefined ? text : cutMiddle(text, options.maxChars));
}

/**
 * What the attempt changed in its environment (the state diff against the state after reset), one change a line,
 * cut like a tool output: it is the system's data, as untrusted as a tool result.
 */
function renderEnvironment(environment: NonNullable<Trajectory["environment"]>, limit: number): string[] {
  if (environment.diff.length === 0) return ["Environment changes (state against the start): none"];
  const changes = environment.diff.map((change) => {
    const value = (v: unknown) => (v === undefined ? "(none)" : stringify(v));
    return `${change.op} ${change.path || "(whole state)"}: ${value(change.before)} -> ${value(change.after)}`;
  });
  const more = environment.diffTruncated ? ["(more changes not stored)"] : [];
  return ["Environment changes (state against the start):", cutMiddle(changes.join("\n"), limit), ...more];
}

function cutMiddle(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = Math.floor(limit * 0.7);
  const tail = limit - head;
  return `${text.slice(0, head)}\n... [${text.length - limit} characters cut] ...\n${text.slice(-tail)}`;
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
