import { type ChatRequest, messageText, systemText } from "../chat-request.js";
import { customerOpening } from "../text/retail-opening.js";
import { declineReason } from "./confirmation-decision.js";

/**
 * The simulated user (SIMULATED): plays the customer of a scenario, as tfgrpo's user role asks (the scenario between
 * <scenario> and </scenario> in the system message, the agent's messages as `user` messages, its own earlier replies
 * as `assistant` ones). It knows only its scenario: it opens with its reason for calling, gives what it knows when
 * asked who it is, says yes when asked to confirm unless its instructions rule out what it is asked to confirm
 * (`confirmation-decision.ts`: then it says no, and why), and ends the conversation (###STOP###) when the agent is
 * done, transfers it or cannot help.
 */
export const userStopToken = "###STOP###";

export const isUserRoleRequest = (request: ChatRequest) =>
  /<scenario>[\s\S]*<\/scenario>/.test(systemText(request));

function scenarioField(scenario: string, label: string): string {
  const match = new RegExp(`^${label}:\\s*(.*)$`, "im").exec(scenario);
  return match?.[1]?.trim() ?? "";
}

/** "You are Yusuf Rossi in zip code 19122." -> "I am Yusuf Rossi in zip code 19122." (the opening's swaps, no greeting). */
const firstPerson = (text: string) => customerOpening(text).replace(/^Hi! /, "");

export function respondAsUser(request: ChatRequest): string {
  const scenario = /<scenario>([\s\S]*)<\/scenario>/.exec(systemText(request))?.[1] ?? "";
  const reason = scenarioField(scenario, "Reason for call") || scenario.trim();
  const known = scenarioField(scenario, "Known info");
  const own = request.messages.filter((m) => m.role === "assistant").length;
  if (own === 0) return customerOpening(reason);
  const agent = [...request.messages].reverse().find((m) => m.role === "user");
  const said = agent ? messageText(agent) : "";
  if (/TRANSFERRED TO A HUMAN|I'm sorry, I could not|anything else I can help|Goodbye/i.test(said)) {
    return `No, that's all. Thank you! ${userStopToken}`;
  }
  if (/\b(yes\/no|confirm|proceed)\b/i.test(said)) {
    const why = declineReason(scenario, said);
    return why === null ? "Yes, please go ahead." : `No, please don't do that. ${why}`;
  }
  if (/\b(email|zip|name)\b/i.test(said)) return known ? firstPerson(known) : "I'd rather not say.";
  return "Okay, thank you.";
}
