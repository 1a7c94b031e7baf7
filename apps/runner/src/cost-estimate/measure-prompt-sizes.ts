import { assemblePrompt, domainConfigFor, parseActorConfig } from "@tfgrpo/actor";
import { advantagePrompt, summaryPrompt } from "@tfgrpo/critic";
import { consolidationMessages } from "@tfgrpo/curator";
import { estimateTokens, type Task, type Trajectory } from "@tfgrpo/protocol";
import type { PromptSizes } from "./estimate-run-cost.js";

/** What a tool's JSON schema adds to every request that offers it (name, description, parameters). */
const toolSchemaTokens = 150;

const tokensOf = (messages: readonly { content: string }[]) =>
  messages.reduce((total, message) => total + estimateTokens(message.content), 0);

/**
 * Token sizes of the prompts this run will send, built with the real prompt builders on the run's own tasks:
 * the actor's prompt for every task (averaged), and the critic's and curator's instructions around what they read.
 */
export function measurePromptSizes(
  tasks: readonly Task[],
  domain: string,
  groupSize: number,
  mode: "tools" | "direct",
): PromptSizes {
  const domainConfig = domainConfigFor(parseActorConfig({}), domain);
  const tools = mode === "tools" ? domainConfig.tools.map((name) => ({ name, description: name })) : [];
  const sample = tasks.length > 0 ? tasks : [{ id: "t", domain, question: "" }];
  let actor = 0;
  for (const task of sample) {
    const prompt = assemblePrompt({
      rolePrompt: domainConfig.systemPrompt,
      tools,
      experiences: [],
      question: task.question,
    });
    actor += prompt.systemTokens + estimateTokens(prompt.user) + tools.length * toolSchemaTokens;
  }
  const first = sample[0]!;
  const trajectory: Trajectory = {
    id: "estimate",
    runId: "estimate",
    taskId: first.id,
    groupId: "estimate",
    attempt: 0,
    messages: [{ role: "user", content: first.question }],
    toolCalls: [],
    finalAnswer: null,
    experiencesShown: [],
    experiencesCited: [],
    usage: { calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 },
    latencyMs: 0,
    stopReason: "answered",
  };
  const answer = first.answer ?? null;
  return {
    actorPrompt: Math.round(actor / sample.length),
    summaryOverhead: tokensOf(summaryPrompt({ trajectory, evaluation: "wrong", groundTruth: answer })),
    advantageOverhead: tokensOf(
      advantagePrompt({
        question: first.question,
        attempts: Array.from({ length: groupSize }, (_, index) => ({ reward: index % 2, summary: "" })),
        groundTruth: answer,
        experiences: [],
      }),
    ),
    consolidationOverhead: tokensOf(
      consolidationMessages({ domain, wordLimit: 32, experiences: [], suggestions: [] }),
    ),
  };
}
