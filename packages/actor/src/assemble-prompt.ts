import { estimateTokens } from "@tfgrpo/protocol";
import { type ExperienceLineInput, renderExperienceBlock } from "./experience-block.js";

export interface PromptToolInfo {
  name: string;
  description: string;
}

export interface AssemblePromptInput {
  /** The domain's role text ("You are a mathematical problem solver..."). */
  rolePrompt: string;
  /** Tools the model may call; empty in direct mode. */
  tools: readonly PromptToolInfo[];
  /** Shown experiences in prompt order (sorted by id). */
  experiences: readonly ExperienceLineInput[];
  /** A few of them, repeated at the end of the block. */
  mostUseful?: readonly ExperienceLineInput[];
  question: string;
  /** A conversation with a user (no \\boxed answer: the agent talks until the user is done). */
  conversational?: boolean;
}

export interface AssembledPrompt {
  system: string;
  /** The first user message: the task's question, verbatim (docs/prompt-contract.md). */
  user: string;
  systemTokens: number;
}

const citeInstruction =
  "When an experience above helps you, say so and cite its id in square brackets, like [G3], at the step " +
  "where you apply it.";
const conversationInstruction =
  "You are talking with a user: answer their messages, ask for what you need, and act with the tools. The " +
  "conversation ends when the user is done.";
const answerInstruction =
  "Finish with a final message that gives your final answer as \\boxed{answer}. Put only the answer inside the box.";

/**
 * The system prompt in a stable order — role, tools, experiences, then instructions — with everything that varies
 * per task (the question) in the user message. Providers cache prompt prefixes, so keeping the long, stable parts
 * first makes repeated rollouts of a library version cheap.
 */
export function assemblePrompt(input: AssemblePromptInput): AssembledPrompt {
  const sections = [input.rolePrompt.trim()];
  if (input.tools.length > 0) {
    sections.push(
      [
        "# Tools",
        "You can call these tools; call them whenever they help, then use their results:",
        ...input.tools.map((tool) => `- ${tool.name}: ${tool.description.replace(/\s+/g, " ").trim()}`),
      ].join("\n"),
    );
  } else {
    sections.push("No tools are available: solve the problem by reasoning alone.");
  }
  const block = renderExperienceBlock(input.experiences, input.mostUseful ?? []);
  if (block) sections.push(block);
  const closing = input.conversational ? conversationInstruction : answerInstruction;
  sections.push(block ? `${citeInstruction}\n${closing}` : closing);
  const system = sections.join("\n\n");
  return { system, user: input.question, systemTokens: estimateTokens(system) };
}
