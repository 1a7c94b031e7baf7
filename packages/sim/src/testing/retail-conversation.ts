import {
  callRetailTool,
  copyRetailDb,
  createRetailReward,
  type RetailDb,
  retailGoldOf,
  retailToolSpecs,
  type Tau2Task,
  toRetailTask,
} from "@tfgrpo/tau2-retail";
import type { ChatRequest } from "../chat-request.js";
import type { SimModel } from "../sim-model.js";

/**
 * One retail conversation driven in-process exactly as tfgrpo's actor drives it (greeting, the user role's prompt
 * contract, one tool call or one message per agent turn), against the real retail tools on a private database.
 */
export interface ConversationResult {
  reward: 0 | 1;
  calls: { name: string; arguments: string; output: string }[];
  agentMessages: string[];
  userMessages: string[];
  final: RetailDb;
  /** The attempt as packages/critic renders a trajectory for the critic (Problem / Step / Tool call / User). */
  rendered: string;
  /** The ground truth the critic gets (the task's answer: the gold calls and facts). */
  groundTruth: string;
}

const tools = retailToolSpecs.map((tool) => ({
  type: "function",
  function: { name: tool.name, description: tool.description, parameters: { type: "object" } },
}));
const reward = createRetailReward();

export function runRetailConversation(
  model: SimModel,
  task: Tau2Task,
  initial: RetailDb,
  options: { experiences?: readonly string[]; seed?: number; maxTurns?: number; score?: boolean } = {},
): ConversationResult {
  const tfgrpoTask = toRetailTask(task);
  const scenario = tfgrpoTask.meta!.userScenario as string;
  const db = copyRetailDb(initial);
  const experiences = (options.experiences ?? []).map((text, i) => `[G${i}]. ${text}`).join("\n");
  const system = `You are a retail agent.\n${experiences ? `Experiences:\n${experiences}\n` : ""}`;
  const greeting = "Hi! How can I help you today?";
  const agent: ChatRequest["messages"] = [
    { role: "system", content: system },
    { role: "assistant", content: greeting },
  ];
  const user: ChatRequest["messages"] = [
    { role: "system", content: `Play the user.\n<scenario>\n${scenario}\n</scenario>` },
    { role: "user", content: greeting },
  ];
  const result: ConversationResult = {
    reward: 0,
    calls: [],
    agentMessages: [],
    userMessages: [],
    final: db,
    rendered: "",
    groundTruth: tfgrpoTask.answer ?? "",
  };
  const lines: string[] = [`Experiences shown to the agent: ${experiences ? "" : "none"}`, experiences];
  let step = 0;
  const userSays = () => {
    const reply = model.complete({ model: "sim-user", messages: user }).content ?? "";
    user.push({ role: "assistant", content: reply });
    result.userMessages.push(reply);
    const heard = reply.replace("###STOP###", "").trim() || reply;
    agent.push({ role: "user", content: heard });
    lines.push("", result.userMessages.length === 1 ? "Problem:" : "User:", heard);
    return reply.includes("###STOP###");
  };
  let ended = userSays();
  for (let turn = 0; turn < (options.maxTurns ?? 60) && !ended; turn++) {
    const answer = model.complete({ model: "sim-actor", messages: agent, tools, seed: options.seed ?? 1 });
    if (answer.toolCalls.length > 0) {
      const call = answer.toolCalls[0]!;
      agent.push({
        role: "assistant",
        content: answer.content ?? "",
        tool_calls: [
          { id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } },
        ],
      });
      const outcome = callRetailTool(db, call.name, JSON.parse(call.arguments));
      result.calls.push({ name: call.name, arguments: call.arguments, output: outcome.text });
      lines.push(
        "",
        `Step ${++step} (assistant):`,
        `Tool call ${call.name}:`,
        `Arguments: ${call.arguments}`,
      );
      lines.push("Output:", outcome.text.slice(0, 3000));
      agent.push({ role: "tool", tool_call_id: call.id, content: outcome.text });
      continue;
    }
    const text = answer.content ?? "";
    agent.push({ role: "assistant", content: text });
    result.agentMessages.push(text);
    lines.push("", `Step ${++step} (assistant):`, text);
    user.push({ role: "user", content: text });
    ended = userSays();
  }
  result.rendered = lines.join("\n");
  if (options.score === false) return result;
  result.reward = reward({
    initial,
    gold: retailGoldOf(tfgrpoTask),
    final: db,
    agentMessages: result.agentMessages,
  }).reward;
  return result;
}
