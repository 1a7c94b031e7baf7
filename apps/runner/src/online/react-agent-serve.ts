import { HumanMessage } from "@langchain/core/messages";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { type RewardFunction, verifyMath } from "@tfgrpo/critic";
import { createExperienceHooks, messagesToTrajectory } from "@tfgrpo/langgraph";
import type { Models } from "@tfgrpo/models";
import type { Task } from "@tfgrpo/protocol";
import type { LibraryService } from "@tfgrpo/serving";
import { createToolset, type ToolResources } from "@tfgrpo/tools";
import type { ServeTask } from "./online-session.js";

export interface ReactAgentServeOptions {
  models: Pick<Models, "chat">;
  library: LibraryService;
  resources: ToolResources;
  domain: string;
  runId: string;
  /** Scores the final answer; default: math equivalence against the task's answer. */
  reward?: RewardFunction;
  /** The fixed part of the system prompt; the hooks append the served experiences to it (a stable prefix). */
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
 * (the actor role's model) and the domain's tools, using a library only through `@tfgrpo/langgraph`'s hooks: the
 * prompt hook puts the fixed system prompt + the served experiences first, the outcome hook reports the reward
 * with the run's messages as the trajectory (which the learner's critic summarizes when it reflects).
 */
export function createReactAgentServe(options: ReactAgentServeOptions): ServeTask {
  const reward = options.reward ?? mathReward;
  const maxSteps = options.maxSteps ?? 6;
  const hooks = createExperienceHooks({
    library: options.library,
    domain: options.domain,
    systemPrompt: options.systemPrompt ?? defaultSystemPrompt,
  });
  return async (task, index) => {
    const toolset = createToolset({
      domain: options.domain,
      resources: options.resources,
      ...(options.tools === "none" ? { tools: [] } : {}),
    });
    try {
      const agent = createReactAgent({
        llm: options.models.chat("actor", { seed: (options.seed ?? 0) + index }),
        tools: toolset.tools,
        prompt: hooks.prompt,
      });
      const config = {
        configurable: { thread_id: `${options.runId}:${index}` },
        recursionLimit: maxSteps * 2 + 1,
      };
      const state = await agent.invoke({ messages: [new HumanMessage(task.question)] }, config);
      const final = [...state.messages].reverse().find((m) => m.getType() === "ai" && m.text.trim() !== "");
      const scored = await reward(task, final?.text ?? null);
      const success = scored.reward >= 1;
      const reply = await hooks.reportOutcome(state, { reward: scored.reward, success }, config);
      return {
        selectionId: reply.selectionId,
        version: reply.version,
        reward: scored.reward,
        success,
        trajectory: messagesToTrajectory(state.messages),
      };
    } finally {
      await toolset.close();
    }
  };
}
