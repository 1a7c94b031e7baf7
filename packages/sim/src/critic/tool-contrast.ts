import type { Advice, Finding } from "./finding.js";

/** One call of a tool that is neither code nor web (a team's own tool), as a summary states it. */
export interface ToolStepView {
  name: string;
  args: Record<string, unknown>;
  /** The tool answered with an error: it refused the call. */
  refused: boolean;
}

/**
 * A general agent habit, not knowledge of any task: when a tool refuses a value the request gave in words, look the
 * value up with the tool that returns it (the winner did), then pass what the lookup returned.
 */
const lookUpFirst: Advice = {
  situations: ["calling {tool} with a value taken from the request's wording"],
  actions: [
    "look up the {field} with {lookup} before calling {tool}, and pass the id {lookup} returns",
    "call {lookup} first to find the {field}'s id, then give {tool} that id",
  ],
  avoid: ["passing the {field} to {tool} as the request words it ({refused})"],
  because: ["{tool} refused {refused} as the {field} and accepted the id {lookup} gave"],
  misguided: ["pass the {field} to {tool} as the request words it; looking it up first wastes a call"],
  cues: {
    topic: /\b(id|ids|identifier|look(?:ing)? up|lookup)\b/i,
    right: /\b(look(?:ing)? up|find|lookup)\b.*\b(id|ids|identifier)\b/i,
    wrong: /\b(as (?:the request|written)|exactly as|directly)\b/i,
  },
};

/**
 * What separates a loser whose call a tool refused from a winner: the winner called another tool before the same
 * tool, and passed a different value in the field the loser's value was refused for.
 */
export function contrastTools(
  loser: readonly ToolStepView[],
  winner: readonly ToolStepView[],
  winnerTag: string,
): Omit<Finding, "attempts" | "confidence"> | null {
  for (const refused of loser.filter((step) => step.refused)) {
    const accepted = winner.findIndex((step) => step.name === refused.name && !step.refused);
    if (accepted <= 0) continue;
    const lookup = winner.slice(0, accepted).find((step) => !loser.some((mine) => mine.name === step.name));
    if (!lookup) continue;
    const good = winner[accepted]!.args;
    const field = Object.keys(refused.args).find(
      (key) => key in good && JSON.stringify(good[key]) !== JSON.stringify(refused.args[key]),
    );
    if (!field) continue;
    const refusedValue = String(refused.args[field]);
    return {
      key: `look-up-first:${refused.name}|${field}`,
      advice: lookUpFirst,
      fill: { tool: refused.name, field, lookup: lookup.name, refused: JSON.stringify(refusedValue) },
      evidence: `${winnerTag} called ${lookup.name} and passed ${field} ${JSON.stringify(good[field])} to ${refused.name}; {losers} passed ${JSON.stringify(refusedValue)}, which ${refused.name} refused`,
    };
  }
  return null;
}
