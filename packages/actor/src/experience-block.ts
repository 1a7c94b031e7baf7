import { estimateTokens } from "@tfgrpo/protocol";

// The markers of docs/prompt-contract.md: the sim's simulated policy (and people reading prompts) find experiences
// by these headings and by `[G3]. text` lines, so they are fixed strings, not config.
export const learnedExperiencesHeading = "# Learned Experiences";
export const mostUsefulHeading = "# Most Useful Experiences";
const learnedIntro = "Use these learned experiences to guide your reasoning where they apply:";
const mostUsefulIntro = "The experiences above that have helped most often:";

export interface ExperienceLineInput {
  id: string;
  text: string;
}

/** `[G3]. text` on one line (an entry's own newlines would break the one-line-per-entry format). */
export function formatExperienceLine(entry: ExperienceLineInput): string {
  return `[${entry.id}]. ${entry.text.replace(/\s+/g, " ").trim()}`;
}

/** Tokens the fixed parts of the block cost, so a selection can count them against its budget. */
export const learnedBlockOverheadTokens = estimateTokens(`${learnedExperiencesHeading}\n${learnedIntro}\n`);
export const mostUsefulBlockOverheadTokens = estimateTokens(`\n${mostUsefulHeading}\n${mostUsefulIntro}\n`);

/** Tokens one experience line costs in the block, newline included. */
export function experienceLineTokens(entry: ExperienceLineInput): number {
  return estimateTokens(formatExperienceLine(entry)) + 1;
}

/**
 * The experience part of the system prompt: `# Learned Experiences` with the shown entries (in the order given:
 * callers pass them sorted by id so the block is stable across tasks), then `# Most Useful Experiences` repeating
 * a few of them at the end, where models attend most. Empty string when nothing is shown.
 */
export function renderExperienceBlock(
  shown: readonly ExperienceLineInput[],
  mostUseful: readonly ExperienceLineInput[] = [],
): string {
  if (shown.length === 0) return "";
  const lines = [learnedExperiencesHeading, learnedIntro, ...shown.map(formatExperienceLine)];
  if (mostUseful.length > 0) {
    lines.push("", mostUsefulHeading, mostUsefulIntro, ...mostUseful.map(formatExperienceLine));
  }
  return lines.join("\n");
}
