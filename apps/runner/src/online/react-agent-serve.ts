import { type RewardFunction, verifyMath } from "@tfgrpo/critic";
import { experienceMiddleware, messagesToTrajectory } from "@tfgrpo/langgraph";
import type { Models } from "@tfgrpo/models";
import { type Task, TfgrpoError } from "@tfgrpo/protocol";
import type { LibraryService, ReportOutcomeReply } from "@tfgrpo/serving";
import { createToolset, type ToolResources } from "@tfgrpo/tools";
import { createAgent } from "langchain";
import type { ServeTask } from "./online-session.js";

export interface ReactAgentServeOptions {
  models: Pick<Models, "chat">;
  library: LibraryService;
  resources: ToolResources;
  domain: string;
  runId: string;
  /** Scores the final answer; default: math equivalence against the task's answer. */
  reward?: RewardFunction;
  /** The fixed part of the system prompt; the middleware appends the served experiences to it (a stable prefix). */
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
 * An agent that is not the project's actor: LangChain's `createAgent` over a LangChain `ChatOpenAI` (the actor
 * role's model) and the domain's tools, using a library only through `@tfgrpo/langgraph`'s `experienceMiddleware`:
 * the fixed system prompt + the served experiences on every model call, and when the run ends the reward reported
 * with the run's messages as the trajectory (which the learner's critic summarizes when it reflects).
 */
export function createReactAgentServe(options: ReactAgentServeOptions): ServeTask {
  const reward = options.reward ?? mathReward;
  const maxSteps = options.maxSteps ?? 6;
  return async (task, index) => {
    const toolset = createToolset({
      domain: options.domain,
      resources: options.resources,
      ...(options.tools === "none" ? { tools: [] } : {}),
    });
    let reply: ReportOutcomeReply | undefined;
    let scored: { reward: number; success: boolean } | undefined;
    try {
      const agent = createAgent({
        model: options.models.chat("actor", { seed: (options.seed ?? 0) + index }),
        tools: [...toolset.tools],
        systemPrompt: options.systemPrompt ?? defaultSystemPrompt,
        middleware: [
          experienceMiddleware({
            library: options.library,
            domain: options.domain,
            task: () => task.question,
            reward: async (run) => {
              const result = await reward(task, run.finalText === "" ? null : run.finalText);
              scored = { reward: result.reward, success: result.reward >= 1 };
              return scored;
            },
            onReport: (sent) => {
              reply = sent;
            },
          }),
        ],
      });
      const state = await agent.invoke(
        { messages: [{ role: "user", content: task.question }] },
        { configurable: { thread_id: `${options.runId}:${index}` }, recursionLimit: maxSteps * 2 + 1 },
      );
      if (!reply || !scored) {
        throw new TfgrpoError("internal", `the run of task ${task.id} ended without a report`);
      }
      return {
        selectionId: reply.selectionId,
        version: reply.version,
        reward: scored.reward,
        success: scored.success,
        trajectory: messagesToTrajectory(state.messages),
      };
    } finally {
      await toolset.close();
    }
  };
}
