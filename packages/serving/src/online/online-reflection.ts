import {
  type OnlineCase,
  onlineReflectionAnswerSchema,
  onlineReflectionPrompt,
  toOnlineProposals,
} from "@tfgrpo/critic";
import { checkCopiedInstructions } from "@tfgrpo/curator";
import type { Models } from "@tfgrpo/models";
import type { ExperienceLine, Proposal } from "@tfgrpo/protocol";
import { neighbourhoodGroups } from "./neighbourhood-groups.js";
import type { OnlineConfig } from "./online-config.js";
import type { OnlineOutcome, SummarizeOutcome } from "./online-outcome.js";

export interface OnlineReflectionInput {
  reflectionId: string;
  /** Recent outcomes (oldest first) the groups are drawn from. */
  pool: readonly OnlineOutcome[];
  /** The served library's visible lines, for the critic to modify or delete. */
  experiences: readonly ExperienceLine[];
  config: OnlineConfig;
  models: Pick<Models, "structured">;
  /** Embeddings of task texts (cached by the caller). */
  embed: (texts: readonly string[]) => Promise<Map<string, ArrayLike<number>>>;
  summarize?: SummarizeOutcome;
  signal?: AbortSignal;
}

export interface OnlineReflectionResult {
  groups: { centre: string; members: string[]; successes: number; failures: number; proposals: number }[];
  proposals: Proposal[];
  /** Table rows the critic wrote, over all groups. */
  differences: number;
  dropped: { groupId: string; reason: string }[];
  /** Selection ids of the outcomes the reflection used. */
  used: string[];
}

/**
 * One online reflection: neighbourhood groups from the recent pool (each a failure with similar tasks, successes
 * among them), one critic call per group with the online prompt (difference table, then at most N rules), the
 * rules mapped to proposals. The curator, not this function, turns the proposals into a version.
 */
export async function reflectOnline(input: OnlineReflectionInput): Promise<OnlineReflectionResult> {
  const { config, pool } = input;
  const candidates = pool.map((outcome) => ({ ...outcome, key: outcome.selectionId }));
  const vectors = await input.embed([...new Set(candidates.map((item) => item.task))]);
  const groups = neighbourhoodGroups(candidates, vectors, config.groups);
  const result: OnlineReflectionResult = { groups: [], proposals: [], differences: 0, dropped: [], used: [] };
  const used = new Set<string>();
  for (const [index, group] of groups.entries()) {
    const groupId = `${input.reflectionId}:g${index + 1}`;
    const cases: OnlineCase[] = [];
    const clientTexts: { id: string; text: string }[] = [];
    for (const member of group.members) {
      const summary = member.summary ?? (await input.summarize?.(member)) ?? null;
      cases.push({
        task: member.task,
        reward: member.success ? Math.max(member.reward, 1) : Math.min(member.reward, 0.999),
        summary: summary ?? member.feedback ?? "(no summary reported)",
        ...(member.feedback ? { feedback: member.feedback } : {}),
      });
      for (const [what, text] of [
        ["task", member.task],
        ["summary", summary],
        ["feedback", member.feedback],
      ] as const) {
        if (text) clientTexts.push({ id: `the ${what} of ${member.selectionId}`, text });
      }
    }
    const answer = await input.models.structured("critic", {
      messages: onlineReflectionPrompt({
        cases,
        experiences: input.experiences,
        maxRules: config.critic.maxRules,
        maxWords: config.critic.maxWords,
      }),
      schema: onlineReflectionAnswerSchema,
      name: "online_reflection",
      description:
        "A table of where the successful and failed cases differ, then at most N action-level rules",
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const mapped = toOnlineProposals(answer.value, {
      groupId,
      taskId: group.centre.selectionId,
      experiences: input.experiences,
      maxRules: config.critic.maxRules,
      maxWords: config.critic.maxWords,
    });
    // Clients wrote the cases: a rule copied from them is an instruction planted in the data, whatever the critic made
    // of the prompt's warning, and never reaches the curator.
    const screened = checkCopiedInstructions(mapped.proposals, { texts: clientTexts });
    result.proposals.push(...screened.kept);
    result.differences += mapped.differences.length;
    for (const item of mapped.dropped) result.dropped.push({ groupId, reason: item.reason });
    for (const item of screened.refused) result.dropped.push({ groupId, reason: `refused: ${item.reason}` });
    for (const member of group.members) used.add(member.selectionId);
    result.groups.push({
      centre: group.centre.selectionId,
      members: group.members.map((member) => member.selectionId),
      successes: group.members.filter((member) => member.success).length,
      failures: group.members.filter((member) => !member.success).length,
      proposals: screened.kept.length,
    });
  }
  result.used = [...used];
  return result;
}
