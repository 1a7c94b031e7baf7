import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  isRetailWriteTool,
  loadRetailDb,
  type Tau2Task,
  tau2TaskSchema,
  toRetailTask,
} from "@tfgrpo/tau2-retail";
import { describe, expect, it } from "vitest";
import { quietNoise } from "../behaviour.js";
import { createSimModel } from "../sim-model.js";
import { runRetailConversation } from "../testing/retail-conversation.js";
import { declineReason } from "../user/confirmation-decision.js";
import { describeRetailWrite } from "./retail-agent.js";

const data = (name: string) => fileURLToPath(new URL(`../../../../test-data/${name}`, import.meta.url));
const db = loadRetailDb(data("tau2-bench-retail/db.json"));
const tasks = (JSON.parse(readFileSync(data("tau2-bench-retail/tasks.json"), "utf8")) as unknown[]).map(
  (raw) => tau2TaskSchema.parse(raw),
);
const task = (id: string) => tasks.find((candidate) => candidate.id === id) as Tau2Task;
const model = createSimModel({ seed: 7, noise: quietNoise });
describe("the simulated user declines what its instructions rule out, and the agent abides (SIMULATED)", () => {
  it("agrees to every gold write of the 114 tasks, as the agent words it", () => {
    const declined = tasks.flatMap((candidate) => {
      const scenario = toRetailTask(candidate).meta!.userScenario as string;
      return (candidate.evaluation_criteria.actions ?? [])
        .filter((action) => isRetailWriteTool(action.name))
        .map((action) => describeRetailWrite({ name: action.name, arguments: action.arguments }))
        .filter((proposal) => declineReason(scenario, `To confirm: I will ${proposal}.`) !== null)
        .map((proposal) => `${candidate.id}: ${proposal}`);
    });
    expect(declined).toEqual([]);
  });

  it("refuses a refund to the wrong method, and the agent then makes no refund at all [53]", () => {
    // Seed 2 without lessons: the agent falls into the refund-destination trap and proposes PayPal; the customer's
    // instructions want the refund on the original credit card.
    const conversation = runRetailConversation(model, task("53"), db, { seed: 2 });
    const asked = conversation.agentMessages.findIndex((message) => message.includes("refunded to paypal_"));
    expect(asked).toBeGreaterThanOrEqual(0);
    expect(conversation.userMessages[asked + 1]).toBe(
      "No, please don't do that. I'd like that to go through my credit card, not a paypal.",
    );
    expect(conversation.agentMessages[asked + 1]).toMatch(/^Understood: I will not return items 7758198585/);
    expect(conversation.calls.map((call) => call.name)).not.toContain("return_delivered_order_items");
    expect(conversation.final.orders["#W3916020"]!.status).toBe(db.orders["#W3916020"]!.status);
    expect(conversation.reward).toBe(0);
  });
});
