/** Reasoning longer than this keeps its head and tail: the critic needs the approach and where it ended up. */
const defaultMaxReasoningChars = 4000;

/**
 * The reasoning a provider returned beside an assistant message, as the critic's prompt shows it: marked as the
 * model's private reasoning, apart from what it said and from its final answer, so a conclusion reached in thought
 * and never stated is not taken for the answer. Nothing when there is none.
 */
export function renderReasoning(
  reasoning: string | undefined,
  maxChars = defaultMaxReasoningChars,
): string[] {
  const text = reasoning?.trim() ?? "";
  if (text === "") return [];
  const shown =
    text.length <= maxChars
      ? text
      : `${text.slice(0, Math.floor(maxChars * 0.6))}\n... [${text.length - maxChars} characters of reasoning cut] ...\n${text.slice(-(maxChars - Math.floor(maxChars * 0.6)))}`;
  return ["Reasoning (the model's own thinking, not its answer):", shown, "(end of reasoning)"];
}
