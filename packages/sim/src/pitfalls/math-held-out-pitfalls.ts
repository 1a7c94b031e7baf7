import type { Pitfall } from "./pitfall.js";

/**
 * Pitfalls of the held-out math families: they appear only in the test split, never in train or validation, so a
 * library learned on train has nothing to say about them. A gain on them would mean something leaks.
 */
export const orderMatters: Pitfall = {
  id: "order-matters",
  domain: "math",
  title: "ordered arrangements counted for an unordered choice",
  reading: {
    topic: [
      "UNORDERED CHOICE",
      "UNORDERED way",
      "UNORDERED GROUP",
      "UNORDERED pair",
      "UNORDERED handshak",
      "UNORDERED people",
      "ORDER CHOICE",
      "ORDER way",
      "ORDER GROUP",
    ],
    context: ["CHOICE", "people", "way", "handshak", "pair"],
    helpful: ["UNORDERED"],
    harmful: ["?ORDER"],
  },
};

export const withoutReplacement: Pitfall = {
  id: "without-replacement",
  domain: "math",
  title: "draws without replacement treated as independent",
  reading: {
    topic: ["NOREPLACE", "REPLACEMENT DRAW", "INDEPENDENT DRAW", "FEWER DRAW"],
    context: ["DRAW", "PROBABILITY"],
    helpful: ["FEWER"],
    harmful: ["INDEPENDENT", "?REPLACEMENT"],
  },
};

export const mathHeldOutPitfalls: readonly Pitfall[] = [orderMatters, withoutReplacement];
