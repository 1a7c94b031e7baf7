import { HumanMessage } from "@langchain/core/messages";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { type RewardFunction, verifyMath } from "@tfgrpo/critic";
import type { Models } from "@tfgrpo/models";
import type { Task } from "@tfgrpo/protocol";
import { createToolset, type ToolResources } from "@tfgrpo/tools";
import { langGraphTrajectory } from "./langgraph-trajectory.js";
import type { ServeTask } from "./online-session.js";

export interface ReactAgentServeOptions {
  models: Pick<Models, "chat">;
  resources: ToolResources;
  domain: string;
  runId: string;
  /** Scores the final answer; default: math equivalence against the task's answer. */
  reward?: RewardFunction;
  /** The fixed part of the system prompt; the served experiences are appended to it (a stable prefix). */
  systemPrompt?: string;
  /** Per-task model seed: `seed + index`. */
  seed?: number;
  maxSteps?: number;
  /** "none": the agent answers without tools (the sim's direct mode); default: the domain's tools. */
  tools?: "domain" | "none";
}

const defaultSystemPrompt =
  "You are a careful problem solver. Use the tools when they help, then give the final answer as \\boxed{...}.";

const mathReward: RewardFunction = (task: Task, finalAnswer: string | null) => ({
  ...verifyMath(task.answer ?? "", finalAnswer),
  method: "math",
});

/**
 * An agent that is not the project's actor: LangGraph's prebuilt `createReactAgent` over a LangChain `ChatOpenAI`
 * (the actor role's model) and the domain's tools, with the library service's prompt block appended to a fixed
 * system prompt. Its messages become a trajectory the critic can summarize when the learner reflects.
 */
export function createReactAgentServe(options: ReactAgentServeOptions): ServeTask {
  const reward = options.reward ?? mathReward;
  const system = options.systemPrompt ?? defaultSystemPrompt;
  const maxSteps = options.maxSteps ?? 6;
  return async (task, served, index) => {
    const toolset = createToolset({
      domain: options.domain,
      resources: options.resources,
      ...(options.tools === "none" ? { tools: [] } : {}),
    });
    const started = Date.now();
    try {
      const agent = createReactAgent({
        llm: options.models.chat("actor", { seed: (options.seed ?? 0) + index }),
        tools: toolset.tools,
        prompt: served.promptBlock ? `${system}\n\n${served.promptBlock}` : system,
      });
      const result = await agent.invoke(
        { messages: [new HumanMessage(task.question)] },
        { recursionLimit: maxSteps * 2 + 1 },
      );
      const trajectory = langGraphTrajectory({
        id: `${options.runId}:${served.selectionId}`,
        runId: options.runId,
        taskId: task.id,
        domain: options.domain,
        libraryVersion: served.version,
        messages: result.messages,
        experiencesShown: served.entries.map((entry) => entry.id),
        latencyMs: Date.now() - started,
      });
      const scored = await reward(task, trajectory.finalAnswer, trajectory);
      return {
        reward: scored.reward,
        success: scored.reward >= 1,
        trajectory: { ...trajectory, reward: scored.reward },
      };
    } finally {
      await toolset.close();
    }
  };
}
