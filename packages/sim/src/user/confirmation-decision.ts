/**
 * Whether the simulated user (SIMULATED) agrees to what the agent asks it to confirm. It reads only what a real
 * customer has: its scenario (the instructions τ²-bench gives the user) and the agent's proposal as written. It says
 * no when the proposal does what the instructions rule out, in words a customer would go by:
 * - a cancellation, when the customer does not want any order cancelled ("You do not want to cancel any orders"),
 *   or not a whole order ("if this would require cancelling the entire order, tell the agent not to do it");
 * - money to or from a kind of payment method (PayPal, a gift card, a credit card) that the instructions do not
 *   name for that kind of request, when they name some ("refund to credit card", "for the pending order
 *   modification, you want to use your credit card"); a change of mind the instructions foresee ("you change your
 *   mind to PayPal") leaves that one only, and a wish left open ("..., if possible") any;
 * - a cancellation reason other than the one the instructions give ("say you ordered by mistake").
 * Anything else it agrees to: it cannot check item ids or amounts it was never told.
 */

export type PaymentKind = "paypal" | "gift card" | "credit card";

const paymentWords: Record<PaymentKind, RegExp> = {
  paypal: /\bpaypal/i,
  "gift card": /\bgift[ _-]?card|\bGC\b/i,
  "credit card": /\bcredit[ _-]card|\bvisa\b|\bmastercard\b|\bamex\b/i,
};
const kinds = Object.keys(paymentWords) as PaymentKind[];

const cancelReasons = {
  "no longer needed": /\bno longer need/i,
  "ordered by mistake": /\bordered\b[^.]{0,30}\bby mistake/i,
} as const;

/** The kinds of payment a text names, in the order of the table. */
function paymentKindsIn(text: string): PaymentKind[] {
  return kinds.filter((kind) => paymentWords[kind].test(text));
}

/** The kind a foreseen change of mind lands on ("you change your mind to using PayPal"), if any. */
function changedMindTo(scenario: string): PaymentKind | undefined {
  const match = /\bchange(?:s|d)? (?:your|my) mind to ([^,.;]{0,40})/i.exec(scenario);
  return match ? paymentKindsIn(match[1]!)[0] : undefined;
}

type Request = "return" | "exchange" | "modify";

/** The kinds of request a sentence is about ("the refund", "the pending order modification"); none: any. */
function requestsIn(text: string): Request[] {
  const found: Request[] = [];
  if (/\b(?:return|refund)/i.test(text)) found.push("return");
  if (/\bexchang/i.test(text)) found.push("exchange");
  if (/\bmodif|\bpending order|\bchange (?:the|an?|your) (?:item|order)/i.test(text)) found.push("modify");
  return found;
}

/**
 * The payment kinds the scenario accepts for `request`, from its sentences about that request or about none: every
 * kind they name, preferred or fallback ("prefer gift card ... if that is not possible, the credit card"). None
 * (anything goes) when they name none, or leave it open ("a gift card ..., if possible").
 */
function wantedPayment(scenario: string, request: Request | undefined): PaymentKind[] {
  const final = changedMindTo(scenario);
  if (final) return [final];
  const wanted = new Set<PaymentKind>();
  for (const sentence of scenario.split(/(?<=[.!?])\s+|\n+/)) {
    const named = paymentKindsIn(sentence);
    if (named.length === 0) continue;
    const about = requestsIn(sentence);
    if (about.length > 0 && request !== undefined && !about.includes(request)) continue;
    if (/\bif possible\b/i.test(sentence)) return [];
    for (const kind of named) wanted.add(kind);
  }
  return kinds.filter((kind) => wanted.has(kind));
}

/** What the agent's proposal does, as a customer reads it. */
function proposalOf(text: string) {
  const money = /\b(?:refunded to|settled with|paid with|pay(?: order \S+)? with|charged to)\s+(\S+)/i.exec(
    text,
  );
  const request: Request | undefined = /\breturn\b/i.test(text)
    ? "return"
    : /\bexchange\b/i.test(text)
      ? "exchange"
      : /\b(?:change|modify|pay order)\b/i.test(text)
        ? "modify"
        : undefined;
  return {
    cancels: /\bcancel(?:l?ing)?\b[^.?]{0,20}\border\b/i.test(text),
    reason: /\breason:\s*([^)]+)\)/i.exec(text)?.[1]?.trim(),
    request,
    payment: money ? paymentKindsIn(money[1]!)[0] : undefined,
  };
}

/** Why the user declines `proposal` (one sentence in its own words), or null when it agrees. */
export function declineReason(scenario: string, proposal: string): string | null {
  const asked = proposalOf(proposal);
  if (asked.cancels) {
    if (/\b(?:do not|don't|never)\s+want\s+to\s+cancel\b/i.test(scenario)) {
      return "I don't want to cancel any order.";
    }
    if (/\bcancel\w*\s+(?:the\s+)?(?:entire|whole)\s+order\b[^.]{0,30}\bnot\b/i.test(scenario)) {
      return "I don't want the whole order cancelled.";
    }
    if (asked.reason) {
      const given = (Object.keys(cancelReasons) as (keyof typeof cancelReasons)[]).filter((reason) =>
        cancelReasons[reason].test(scenario),
      );
      const said = (Object.keys(cancelReasons) as (keyof typeof cancelReasons)[]).find((reason) =>
        cancelReasons[reason].test(asked.reason!),
      );
      if (given.length > 0 && said !== undefined && !given.includes(said)) {
        return `That is not why: I ${given[0] === "ordered by mistake" ? "ordered it by mistake" : "no longer need it"}.`;
      }
    }
  }
  if (asked.payment) {
    const wanted = wantedPayment(scenario, asked.request);
    if (wanted.length > 0 && !wanted.includes(asked.payment)) {
      return `I'd like that to go through my ${wanted.join(" or ")}, not a ${asked.payment}.`;
    }
  }
  return null;
}
