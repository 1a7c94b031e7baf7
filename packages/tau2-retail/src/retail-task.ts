import type { Task } from "@tfgrpo/protocol";
import { TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";

export const tau2RetailDomain = "tau2-retail";

const goldActionSchema = z.looseObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
});
export type GoldAction = z.infer<typeof goldActionSchema>;

/** What the reward and the critic get as ground truth: the gold calls and the facts the agent must tell. */
export const retailGoldSchema = z.object({
  actions: z.array(goldActionSchema),
  communicate_info: z.array(z.string()),
});
export type RetailGold = z.infer<typeof retailGoldSchema>;

/** One task as τ²-bench ships it in tasks.json (the fields read here; others are kept out of the prompt). */
export const tau2TaskSchema = z.looseObject({
  id: z.string().min(1),
  user_scenario: z.looseObject({
    persona: z.string().nullable().optional(),
    instructions: z.looseObject({
      task_instructions: z.string(),
      reason_for_call: z.string(),
      known_info: z.string().nullable().optional(),
      unknown_info: z.string().nullable().optional(),
    }),
  }),
  evaluation_criteria: z.looseObject({
    actions: z.array(goldActionSchema).nullable().optional(),
    communicate_info: z.array(z.string()).nullable().optional(),
    nl_assertions: z.array(z.string()).nullable().optional(),
    reward_basis: z.array(z.string()).optional(),
  }),
});
export type Tau2Task = z.infer<typeof tau2TaskSchema>;

/** What the user role is given: τ²'s instructions in their order, one labelled paragraph each. */
export function userScenarioOf(task: Tau2Task): string {
  const { persona, instructions } = task.user_scenario;
  const parts: [string, string | null | undefined][] = [
    ["Persona", persona],
    ["Reason for call", instructions.reason_for_call],
    ["Known info", instructions.known_info],
    ["Unknown info", instructions.unknown_info],
    ["Task instructions", instructions.task_instructions],
  ];
  return parts
    .filter(([, text]) => typeof text === "string" && text.trim() !== "")
    .map(([label, text]) => `${label}: ${text!.trim()}`)
    .join("\n");
}

/** The question the actor's task carries: no scenario, no gold; the conversation is what the agent learns from. */
export const retailQuestion =
  "A customer of the retail store contacts you. Help them within the policy, using the tools.";

/**
 * A τ² task as a tfgrpo task: the scenario in `meta.userScenario` (for the user role only), the gold calls and
 * the facts to communicate as JSON in `answer` (the ground truth the reward and the critic read), τ²'s own id
 * and criteria in `meta.tau2`.
 */
export function toRetailTask(task: Tau2Task): Task {
  const criteria = task.evaluation_criteria;
  const gold: RetailGold = {
    actions: (criteria.actions ?? []).map((action) => ({ name: action.name, arguments: action.arguments })),
    communicate_info: criteria.communicate_info ?? [],
  };
  return {
    id: `tau2-retail-${task.id}`,
    domain: tau2RetailDomain,
    question: retailQuestion,
    answer: JSON.stringify(gold),
    meta: {
      userScenario: userScenarioOf(task),
      conversational: true,
      tau2: {
        taskId: task.id,
        rewardBasis: criteria.reward_basis ?? ["DB"],
        nlAssertions: criteria.nl_assertions ?? [],
      },
    },
  };
}

/** The gold of a task written by `toRetailTask`; the error names the task. */
export function retailGoldOf(task: Pick<Task, "id" | "answer">): RetailGold {
  let value: unknown;
  try {
    value = JSON.parse(task.answer ?? "");
  } catch {
    throw new TfgrpoError(
      "invalid_dataset",
      `task ${task.id}: answer is not the retail gold JSON ({"actions": [...], "communicate_info": [...]})`,
    );
  }
  const parsed = retailGoldSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TfgrpoError(
      "invalid_dataset",
      `task ${task.id}: answer.${issue.path.join(".")}: ${issue.message} (expected the retail gold JSON)`,
    );
  }
  return parsed.data;
}
