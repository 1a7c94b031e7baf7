import type { CriticOperation, TracedOperation } from "./critic-operation.js";
import type { AttemptEvidence } from "./summary-reading.js";

/**
 * Stage 2 for store-tools attempts (SIMULATED critic): the problems the failing attempts show and the best ones do
 * not, each turned into one lesson in the critic's own words (two phrasings, picked by the draw), at most three.
 */
const lessons: Record<string, readonly string[]> = {
  identity: [
    "Authenticate the caller first: run find_user_id_by_email, or find_user_id_by_name_zip, and never guess an account id from a name.",
    "Before reading any profile or order, identify the customer with the email lookup or the name and zip lookup; do not guess the id.",
  ],
  lookup: [
    "When find_user_id_by_email says 'User not found', try find_user_id_by_name_zip (or the other zip the caller mentions) before giving up.",
    "A lookup that finds nobody is not the end: switch to the other lookup method with the details the caller gives.",
  ],
  "order-state": [
    "Check the order's status first: pending orders are cancelled or modified, delivered ones are returned or exchanged; match the action to the status.",
    "Read the status in get_order_details before choosing between modify and exchange, or cancel and return.",
  ],
  "one-list": [
    "Exchanges and item modifications work only once per order: collect all the items into one list and make a single call.",
    "Ask for every item the caller wants changed, then send them all in one exchange or modify call for that order.",
  ],
  "variant-ids": [
    "new_item_ids take the item id of the chosen variant from get_product_details, never the product id.",
    "Use the variant's item id for the new items; a product id in new_item_ids is refused.",
  ],
  payment: [
    "Refund to the original payment method of the order, or to an existing gift card if the caller asks for it; do not choose a different card.",
    "Send refunds and price differences to the original payment method unless the caller names an existing gift card.",
  ],
  reason: [
    "The cancellation reason must be 'no longer needed' or 'ordered by mistake'; use one of the allowed reasons, not the caller's own wording.",
    "Give cancel_pending_order an allowed cancellation reason ('no longer needed' or 'ordered by mistake'), whatever words the caller used.",
  ],
  handoff: [
    "Do not transfer to a human agent when the request can be handled with your tools; handle returns, exchanges and cancellations yourself.",
    "Keep transfer_to_human_agents for requests outside the policy; several in-scope requests are no reason to transfer.",
  ],
  numbers: [
    "Tell the caller the exact amounts and counts from the tool results, to the cent; never round them.",
    "When the caller asks how much, give the exact amount you looked up or computed, not a rough estimate.",
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
