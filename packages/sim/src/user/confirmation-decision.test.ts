import { describe, expect, it } from "vitest";
import { declineReason } from "./confirmation-decision.js";

// Scenarios quoted from τ²-bench retail tasks (their ids in brackets); proposals worded as the sim agent words them.
const refund = (method: string) =>
  `return items 7758198585 of order #W3916020, refunded to ${method}. Shall I proceed (yes/no)?`;
const swap = (method: string) =>
  `change items 2492465580 of order #W5270061 to 5917587651, the price difference settled with ${method}. Shall I proceed (yes/no)?`;
const cancel = (reason: string) => `cancel order #W8 (reason: ${reason}). Shall I proceed (yes/no)?`;

describe("the simulated user's yes or no to a proposed write (SIMULATED)", () => {
  it("says no to a refund to another kind of method than the one its instructions require [53]", () => {
    const scenario = "Reason for call: ... You want the refund to be credited to your original credit card.";
    expect(declineReason(scenario, refund("paypal_8194385"))).toBe(
      "I'd like that to go through my credit card, not a paypal.",
    );
    expect(declineReason(scenario, refund("credit_card_8105988"))).toBeNull();
  });

  it("reads a method named for one kind of request as about that request only [100]", () => {
    const scenario =
      "Reason for call: You want to return your luggage set ... For the pending order modification, you want to use your credit card. You also want to return the hiking boots.";
    expect(declineReason(scenario, refund("paypal_3650980"))).toBeNull();
    expect(declineReason(scenario, swap("paypal_3650980"))).toMatch(/credit card, not a paypal/);
  });

  it("accepts a fallback its instructions allow, and anything when they leave the wish open [58, 45]", () => {
    const fallback =
      "If a price difference is needed to pay, you would be angry but prefer gift card payment. If that is not possible, you would use the credit card.";
    expect(declineReason(fallback, swap("gift_card_9368765"))).toBeNull();
    expect(declineReason(fallback, swap("credit_card_1"))).toBeNull();
    expect(declineReason(fallback, swap("paypal_1"))).toMatch(/gift card or credit card, not a paypal/);
    const open =
      "Ask the agent for getting a gift card for the price difference instead of the original payment method, if possible.";
    expect(declineReason(open, swap("paypal_2433177"))).toBeNull();
  });

  it("follows a change of mind its instructions foresee [71]", () => {
    const scenario =
      "If the agent asks for payment method, you say GC initially, but when the agent asks you to confirm before proceeding, you change your mind to PayPal, and decide to only modify the backpack.";
    expect(declineReason(scenario, swap("gift_card_1711656"))).toMatch(/paypal, not a gift card/);
    expect(declineReason(scenario, swap("paypal_7729105"))).toBeNull();
  });

  it("says no to a cancellation its instructions rule out, or with the other reason [79, 28, 113]", () => {
    expect(
      declineReason(
        "Task instructions: You are insecure. You do not want to cancel any orders.",
        cancel("no longer needed"),
      ),
    ).toBe("I don't want to cancel any order.");
    expect(
      declineReason(
        "You also want to cancel the garden hose from the pending order you just placed (you ONLY want to cancel that hose — if this would require cancelling the entire order, tell the agent not to do it).",
        cancel("no longer needed"),
      ),
    ).toBe("I don't want the whole order cancelled.");
    const mistake = "Task instructions: If asked for reason, say you ordered the items by mistake.";
    expect(declineReason(mistake, cancel("no longer needed"))).toBe(
      "That is not why: I ordered it by mistake.",
    );
    expect(declineReason(mistake, cancel("ordered by mistake"))).toBeNull();
  });

  it("agrees when its instructions say nothing against the proposal", () => {
    const scenario = "Reason for call: You want to cancel all pending orders.";
    expect(declineReason(scenario, cancel("no longer needed"))).toBeNull();
    expect(declineReason(scenario, refund("gift_card_1"))).toBeNull();
  });
});
