import type { CriticOperation, TracedOperation } from "./critic-operation.js";
import type { AttemptEvidence } from "./summary-reading.js";

/**
 * Stage 2 for store-tools attempts (SIMULATED critic): the problems the failing attempts show and the best ones do
 * not, each turned into one lesson in the critic's own words (two phrasings, picked by the draw), at most three.
 */
const lessons: Record<string, readonly string[]> = {
  identity: [
    "At the start of every conversation, before reading a profile or an order, authenticate the caller through find_user_id_by_email or find_user_id_by_name_zip; never make up an account id from a name.",
    "Before any profile or order lookup, confirm who is calling with the email search or the name-and-zip search; a user id guessed from a name is refused.",
  ],
  lookup: [
    "When find_user_id_by_email finds no account, retry with find_user_id_by_name_zip (or another zip the caller mentions) rather than ending the call.",
    "If the first identity search comes back with no user, run the second search method with the caller's other details before you stop helping.",
  ],
  "order-state": [
    "When a caller asks to cancel, change, return or exchange an order, read its status in get_order_details first: pending orders allow cancel or modify, delivered ones allow return or exchange.",
    "Before choosing between modify and exchange, or cancel and return, look at the order's status and pick the tool that fits it.",
  ],
  "one-list": [
    "When a caller wants several items of one order exchanged or modified, gather every one of them first and send them together in a single call: the tool works one time per order.",
    "If more than one item of an order should change, ask for all of them, then pass the whole list in one exchange or modify request.",
  ],
  "variant-ids": [
    "When exchanging or modifying items, new_item_ids take the item_id of the chosen option from get_product_details, never the product_id.",
    "For an exchange or an item modification, put the option's item_id in new_item_ids; passing a product_id there is refused.",
  ],
  payment: [
    "When a return, an exchange or an item change moves money, settle it with the order's original payment method, or with a gift card the caller already holds if they ask; never another card.",
    "For refunds and price differences of a return or exchange, use the original payment method unless the caller picks an existing gift card.",
  ],
  reason: [
    "When cancelling a pending order, give cancel_pending_order one of its two accepted reasons, 'no longer needed' or 'ordered by mistake', not the caller's own words.",
    "For a cancellation, map whatever the caller says to 'no longer needed' or 'ordered by mistake', the only reasons cancel_pending_order takes.",
  ],
  handoff: [
    "When a caller has several requests your tools can serve, work through them yourself; keep transfer_to_human_agents for requests the policy does not cover.",
    "Several in-scope requests are no reason to hand the caller to a human: process each one with your tools.",
  ],
  numbers: [
    "When the caller asks how much or how many, tell them the precise figure from the tool results, cents included; do not round it.",
    "If the caller asks for an amount or a count, quote the number exactly as the tools returned or calculate computed it, not an approximation.",
  ],
};

const vague = "Handle each customer request carefully and follow the store policy.";

const tagsOf = (summary: string) => [...summary.matchAll(/^- \[([a-z-]+)\]/gm)].map((m) => m[1]!);

export const isRetailSummary = (summary: string) => summary.startsWith("Retail attempt review.");

export function retailOperations(
  attempts: readonly AttemptEvidence[],
  draw: (label: string, ...extra: string[]) => number,
  maxOperations: number,
): TracedOperation[] {
  const best = Math.max(...attempts.map((a) => a.reward));
  const worst = Math.min(...attempts.map((a) => a.reward));
  const losers = attempts.filter((a) => a.reward < best || (attempts.length === 1 && a.reward < 1));
  const winners = best > worst ? attempts.filter((a) => a.reward === best) : [];
  const clean = new Set(winners.flatMap((a) => tagsOf(a.summary)));
  const counts = new Map<string, number>();
  for (const attempt of losers) {
    for (const tag of new Set(tagsOf(attempt.summary))) {
      if (!clean.has(tag) && lessons[tag]) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    }
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const operations: TracedOperation[] = ranked.slice(0, maxOperations).map(([tag, count]) => {
    const phrasings = lessons[tag]!;
    const operation: CriticOperation = {
      option: "add",
      experience: phrasings[Math.floor(draw("retail-lesson", tag) * phrasings.length)]!,
      reason: `${count} failing attempt(s) show this problem ([${tag}]) and the successful ones do not.`,
    };
    return { operation, origin: "evidence" };
  });
  if (operations.length === 0 && losers.length > 0) {
    operations.push({
      operation: {
        option: "add",
        experience: vague,
        reason: "The reviews do not show where the failing attempts went wrong.",
      },
      origin: "fallback",
    });
  }
  return operations;
}
