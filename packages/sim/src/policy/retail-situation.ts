import type { RetailInstance } from "../suites/retail-tasks.js";
import { analyzeLesson } from "./read-lesson.js";

/**
 * Whether the situation a retail lesson names holds in this conversation. "When a customer cancels a pending order,
 * …" is advice for cancellations; read in a conversation about an exchange of a delivered order it does not apply,
 * whatever its action clause says. The world knows what each conversation is about (the customer's requests, as it
 * knows the calls that serve them); a lesson's situation is read from the clauses that say when it applies.
 */

export type RetailFact =
  | "cancel"
  | "return"
  | "exchange"
  | "modify"
  | "address"
  | "payment change"
  | "pending"
  | "delivered"
  | "gift card"
  | "lookup fails"
  | "several items";

// Words that name a situation in a lesson, and the fact each names. Plain English for the store's requests.
const situationWords: readonly [RegExp, RetailFact][] = [
  [/\bcancel(?:s|led|ed|ling|ing|lation|lations)?\b/i, "cancel"],
  [/\breturn(?:s|ed|ing)?\b|\bsend(?:s|ing)? (?:it |them |items? )?back\b/i, "return"],
  [/\bexchang(?:e|es|ed|ing)\b|\bswap(?:s|ped|ping)?\b/i, "exchange"],
  [/\bmodif(?:y|ies|ied|ying|ication|ications)\b/i, "modify"],
  [/\baddress(?:es)?\b|\bship(?:ping)? to\b/i, "address"],
  [
    /\bpayment method (?:change|switch)\b|\bchang(?:e|es|ing) (?:the |their |its )?payment\b|\bpay(?:s|ing)? (?:with|by) (?:another|a different)\b/i,
    "payment change",
  ],
  [/\bpending\b|\bnot (?:yet )?shipped\b|\bhas(?:n't| not) shipped\b|\bunshipped\b/i, "pending"],
  [/\bdelivered\b|\breceived\b|\barrived\b/i, "delivered"],
  [/\bgift[- ]cards?\b/i, "gift card"],
  [
    /\bnot found\b|\bno (?:match|result|account|user)\b|\bfinds? (?:nobody|no one|nothing|no user|no account)\b|\bcomes? back empty\b|\b(?:lookup|search)\w* (?:fails?|failed)\b|\bcannot be found\b/i,
    "lookup fails",
  ],
  [/\b(?:several|multiple|more than one|two or more|many) items\b/i, "several items"],
];

const lookups = new Set(["find_user_id_by_email", "find_user_id_by_name_zip"]);

/** The facts of a conversation: what the customer asks for and the state of what it concerns. */
export function retailFacts(instance: RetailInstance): Set<RetailFact> {
  const facts = new Set<RetailFact>();
  const lookupCount = instance.actions.filter((action) => lookups.has(action.name)).length;
  if (lookupCount >= 2) facts.add("lookup fails");
  for (const { name, arguments: args } of instance.actions) {
    if (name === "cancel_pending_order") facts.add("cancel").add("pending");
    if (name === "return_delivered_order_items") facts.add("return").add("delivered");
    if (name === "exchange_delivered_order_items") facts.add("exchange").add("delivered");
    if (name.startsWith("modify_pending_order")) facts.add("modify").add("pending");
    if (name === "modify_pending_order_address" || name === "modify_user_address") facts.add("address");
    if (name === "modify_user_address") facts.add("modify");
    if (name === "modify_pending_order_payment") facts.add("payment change");
    if (typeof args.payment_method_id === "string" && args.payment_method_id.startsWith("gift_card"))
      facts.add("gift card");
    if (Array.isArray(args.item_ids) && args.item_ids.length >= 2) facts.add("several items");
  }
  return facts;
}

/** The facts a lesson's situation clauses name. */
export function situationFacts(text: string): Set<RetailFact> {
  const named = new Set<RetailFact>();
  for (const clause of analyzeLesson(text).situations)
    for (const [pattern, fact] of situationWords) if (pattern.test(clause)) named.add(fact);
  return named;
}

/**
 * A lesson applies when it names no situation of the store's, or when one it names holds ("when a customer wants to
 * return or exchange items" holds for either).
 */
export function situationHolds(text: string, facts: ReadonlySet<RetailFact>): boolean {
  const named = situationFacts(text);
  if (named.size === 0) return true;
  for (const fact of named) if (facts.has(fact)) return true;
  return false;
}
