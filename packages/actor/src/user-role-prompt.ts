/**
 * The `user` role's prompt: the one file that defines what a simulated user model is sent (docs/actor.md "A user to
 * talk to"). The contract, kept stable because simulated users (the sim's, a team's) read it:
 * - the system message contains the task's scenario verbatim between `<scenario>` and `</scenario>`
 *   (`<scenario>` in the system message is how a server recognises a user-role request);
 * - the agent's messages are sent as `user` messages, the user's own earlier replies as `assistant` messages;
 * - the conversation opens with the user answering the fixed agent greeting `userGreeting`;
 * - the user ends the conversation with a message containing `userStopToken` (τ²-bench's convention).
 */
export const userGreeting = "Hi! How can I help you today?";
export const userStopToken = "###STOP###";
export const userScenarioOpen = "<scenario>";
export const userScenarioClose = "</scenario>";

export function userRolePrompt(scenario: string): string {
  return [
    "You are playing a user who talks to a customer-service agent. Follow the scenario below: it says who you are,",
    "what you want and what you know. Say only what a real user in this situation would say, one message at a time,",
    "in plain language. Reveal information only when the agent asks for it or when it is needed; never invent",
    "details the scenario does not give. Confirm or refuse what the agent proposes as the scenario says.",
    `When your goal is reached, or the agent cannot help, end the conversation with a message containing ${userStopToken}.`,
    "",
    userScenarioOpen,
    scenario,
    userScenarioClose,
  ].join("\n");
}
