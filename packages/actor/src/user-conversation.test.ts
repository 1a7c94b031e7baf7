import type { BaseMessage } from "@langchain/core/messages";
import type { Task } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { type ActorModels, createActor } from "./create-actor.js";
import { createScriptedModels, finalMessage } from "./testing/scripted-chat-model.js";
import { userGreeting } from "./user-role-prompt.js";

const task: Task = {
  id: "c1",
  domain: "support",
  question: "HIDDEN QUESTION the agent must not see",
  meta: { userScenario: "You are Ann. You want to cancel order #12. Your zip code is 02139." },
};

const roleOf = (message: BaseMessage) => message.getType();
const textOf = (message: BaseMessage) => String(message.content);

function models(agent: (call: number) => string, user: (call: number) => string) {
  const actorSide = createScriptedModels(async (_m, call) => finalMessage(agent(call)));
  const userSide = createScriptedModels(async (_m, call) => finalMessage(user(call)));
  const chat: ActorModels["chat"] = (role, options) =>
    role === "user" ? userSide.chat("actor", options) : actorSide.chat("actor", options);
  return { models: { chat } satisfies ActorModels, actorCalls: actorSide.calls, userCalls: userSide.calls };
}

const request = { runId: "r", groupId: "g", task, attempt: 0, library: null };

describe("conversational rollouts (task.meta.userScenario)", () => {
  it("opens with the greeting, sends plain messages to the user role, and ends when the user says ###STOP###", async () => {
    const {
      models: m,
      actorCalls,
      userCalls,
    } = models(
      (call) => (call === 0 ? "Sure. What is your zip code?" : "Order #12 is cancelled."),
      (call) => ["I want to cancel order #12.", "02139", "Thanks! ###STOP###"][call]!,
    );
    const actor = createActor({
      models: m,
      config: { domains: { support: { tools: [], systemPrompt: "You help." } } },
    });
    const trajectory = await actor.rollout(request);

    // The user role: the scenario verbatim in <scenario>, the agent as `user`, its own replies as `assistant`.
    const first = userCalls[0]!.messages;
    expect(first.map(roleOf)).toEqual(["system", "human"]);
    expect(textOf(first[0]!)).toContain(`<scenario>\n${task.meta!.userScenario}\n</scenario>`);
    expect(textOf(first[1]!)).toBe(userGreeting);
    expect(userCalls[1]!.messages.map(roleOf)).toEqual(["system", "human", "ai", "human"]);
    expect(textOf(userCalls[1]!.messages[3]!)).toBe("Sure. What is your zip code?");

    // The agent: the greeting then the user's words; never the task's question.
    expect(actorCalls[0]!.messages.map(roleOf)).toEqual(["system", "ai", "human"]);
    expect(textOf(actorCalls[0]!.messages[2]!)).toBe("I want to cancel order #12.");
    const everything = actorCalls.flatMap((call) => call.messages.map(textOf)).join("\n");
    expect(everything).not.toContain("HIDDEN QUESTION");
    expect(textOf(actorCalls[0]!.messages[0]!)).not.toContain("\\boxed");

    expect(trajectory.stopReason).toBe("answered");
    expect(trajectory.finalAnswer).toBe("Order #12 is cancelled.");
    expect(
      trajectory.messages.filter((message) => message.role === "user").map((message) => message.content),
    ).toEqual(["I want to cancel order #12.", "02139", "Thanks!"]);
  });

  it("stops at the user-turn limit when the user never ends the conversation", async () => {
    const { models: m, userCalls } = models(
      () => "Could you tell me more?",
      () => "Hmm.",
    );
    const actor = createActor({
      models: m,
      config: { maxUserTurns: 2, domains: { support: { tools: [], systemPrompt: "You help." } } },
    });
    const trajectory = await actor.rollout(request);
    expect(trajectory.stopReason).toBe("max_steps");
    expect(trajectory.error).toContain("limit of 2 user replies");
    expect(userCalls).toHaveLength(3); // the opening and two replies
  });

  it("caps a long user reply (untrusted text) before the agent and the trajectory see it", async () => {
    const { models: m, actorCalls } = models(
      () => "ok",
      (call) => (call === 0 ? "x".repeat(10_000) : "###STOP###"),
    );
    const actor = createActor({
      models: m,
      config: { userReplyChars: 500, domains: { support: { tools: [], systemPrompt: "You help." } } },
    });
    const trajectory = await actor.rollout(request);
    expect(textOf(actorCalls[0]!.messages[2]!).length).toBeLessThanOrEqual(500);
    expect(trajectory.messages.every((message) => message.content.length <= 4000)).toBe(true);
  });
});
