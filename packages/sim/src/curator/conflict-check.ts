import { between } from "../text/experience-lines.js";
import { compareDirections } from "./lesson-polarity.js";
import { topicLabel, topicSimilarity, viewText } from "./topic-similarity.js";

/** Two texts are on the same topic for the conflict check at or above this similarity. */
export const conflictTopicSimilarity = 0.3;

/**
 * The conflict check from the two texts alone: a conflict when they are about the same thing (similarity or word
 * overlap) and the curator's reading finds them pointing opposite ways on what they share.
 */
export function checkConflict(prompt: string): { conflict: boolean; reason: string } {
  const a = viewText(between(prompt, "experience_a") ?? "");
  const b = viewText(between(prompt, "experience_b") ?? "");
  const similarity = topicSimilarity(a, b);
  if (similarity < conflictTopicSimilarity)
    return { conflict: false, reason: "They are about different things." };
  const topic = topicLabel(a.text, 3, b) || "the same situation";
  const directions = compareDirections(a.polarity, b.polarity);
  if (directions.relation === "opposite")
    return {
      conflict: true,
      reason: `Both are about ${topic} but point opposite ways (${directions.disputed.slice(0, 2).join(", ")}).`,
    };
  if (directions.relation === "same")
    return { conflict: false, reason: `Both are about ${topic} and agree; they may be duplicates.` };
  return { conflict: false, reason: `Both are about ${topic}; no opposite instruction found.` };
}
