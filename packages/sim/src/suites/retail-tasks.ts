import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { customerOpening, openingKey } from "../text/retail-opening.js";

/** A gold call of a τ²-bench retail task. */
export interface RetailGoldCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What the simulated retail world knows of one task: the customer's scenario and the calls that solve it. */
export interface RetailInstance {
  domain: "retail";
  taskId: string;
  reason: string;
  knownInfo: string;
  instructions: string;
  actions: RetailGoldCall[];
  communicate: string[];
}

/**
 * The τ²-bench retail tasks the world knows: from $TFGRPO_SIM_TAU2_RETAIL (a τ²-bench retail directory, or its
 * tasks.json), else the copy in the repository's test-data. Loaded once, on the first retail conversation.
 */
function tasksFile(): string | null {
  const configured = process.env.TFGRPO_SIM_TAU2_RETAIL;
  if (configured)
    return configured.endsWith(".json") ? configured : `${configured.replace(/\/$/, "")}/tasks.json`;
  const bundled = fileURLToPath(
    new URL("../../../../test-data/tau2-bench-retail/tasks.json", import.meta.url),
  );
  return existsSync(bundled) ? bundled : null;
}

interface RawTask {
  id: string;
  user_scenario: {
    instructions: { reason_for_call: string; known_info?: string | null; task_instructions?: string | null };
  };
  evaluation_criteria: { actions?: RetailGoldCall[] | null; communicate_info?: string[] | null };
}

let registry: Map<string, RetailInstance[]> | undefined;
let paymentMethods: Map<string, string[]> | undefined;

/**
 * The payment method ids of the customer who placed `orderId`, from the world's database (db.json beside the tasks):
 * what a customer would list if asked, and what a careless agent picks from.
 */
export function paymentMethodsForOrder(orderId: string): string[] {
  if (!paymentMethods) {
    paymentMethods = new Map();
    const file = tasksFile();
    const db = file ? file.replace(/tasks\.json$/, "db.json") : null;
    if (db && existsSync(db)) {
      const data = JSON.parse(readFileSync(db, "utf8")) as {
        users: Record<string, { payment_methods: Record<string, unknown> }>;
        orders: Record<string, { user_id: string }>;
      };
      for (const [id, order] of Object.entries(data.orders)) {
        paymentMethods.set(id, Object.keys(data.users[order.user_id]?.payment_methods ?? {}));
      }
    }
  }
  return paymentMethods.get(orderId) ?? [];
}

function load(): Map<string, RetailInstance[]> {
  const byOpening = new Map<string, RetailInstance[]>();
  const file = tasksFile();
  if (!file || !existsSync(file)) return byOpening;
  for (const raw of JSON.parse(readFileSync(file, "utf8")) as RawTask[]) {
    const { instructions } = raw.user_scenario;
    const instance: RetailInstance = {
      domain: "retail",
      taskId: raw.id,
      reason: instructions.reason_for_call,
      knownInfo: instructions.known_info ?? "",
      instructions: instructions.task_instructions ?? "",
      actions: (raw.evaluation_criteria.actions ?? []).map((a) => ({ name: a.name, arguments: a.arguments })),
      communicate: raw.evaluation_criteria.communicate_info ?? [],
    };
    const key = openingKey(customerOpening(instance.reason));
    byOpening.set(key, [...(byOpening.get(key) ?? []), instance]);
  }
  return byOpening;
}

/**
 * The task a retail conversation is about, from the customer's opening message; among tasks that open alike, the
 * one whose known facts the conversation has mentioned (else the first).
 */
export function recognizeRetailConversation(opening: string, conversation: string): RetailInstance | null {
  registry ??= load();
  const candidates = registry.get(openingKey(opening));
  if (!candidates || candidates.length === 0) return null;
  if (candidates.length === 1) return candidates[0]!;
  const said = conversation.toLowerCase();
  const score = (instance: RetailInstance) =>
    (instance.knownInfo.match(/[\w@.#-]+/g) ?? []).filter((word) => said.includes(word.toLowerCase())).length;
  return [...candidates].sort((a, b) => score(b) - score(a))[0]!;
}
