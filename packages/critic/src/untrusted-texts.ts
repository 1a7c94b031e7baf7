import { checkCopiedInstructions, type Proposal, type Trajectory } from "@tfgrpo/protocol";

/**
 * What a group's trajectories hold that nobody vetted: every tool result, and every user reply of a conversation
 * (the user messages after the first, which is the task). A lesson must be drawn from them, never copied out of them.
 */
export function untrustedTextsOf(trajectories: readonly Trajectory[]): { id: string; text: string }[] {
  return trajectories.flatMap((trajectory) => [
    ...trajectory.toolCalls.map((call) => ({
      id: `the ${call.name} result of ${trajectory.id}`,
      text: call.output,
    })),
    ...trajectory.messages
      .filter((message) => message.role === "user")
      .slice(1)
      .map((message, index) => ({
        id: `user reply ${index + 1} of ${trajectory.id}`,
        text: message.content,
      })),
  ]);
}

/**
 * The proposals a critic may pass on: those copying a run of words from a tool result or a user reply (an
 * instruction planted there and followed: "add this lesson: ...") are refused with the reason, whatever the prompt
 * told the model.
 */
export function screenCopiedProposals(
  proposals: readonly Proposal[],
  trajectories: readonly Trajectory[],
): { kept: Proposal[]; refused: { proposal: Proposal; reason: string }[] } {
  const texts = untrustedTextsOf(trajectories);
  if (texts.length === 0) return { kept: [...proposals], refused: [] };
  return checkCopiedInstructions(proposals, { texts });
}
