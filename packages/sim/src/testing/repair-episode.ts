import type { ChatRequest } from "../chat-request.js";
import { readPitfall } from "../experience-reading.js";
import { recognizeRepairQuestion, respondRepair } from "../policy/repair-agent.js";
import type { ExperienceLine } from "../text/experience-lines.js";

/** The workspace tools an episode drives (the code-repair package's workspace, in tests). */
export interface EpisodeWorkspace {
  write(content: string): Promise<void>;
  runTests(): Promise<string>;
  runPython(code: string): Promise<string>;
}

/**
 * One attempt of the simulated repair agent, its turns run against a real workspace without the chat server (the
 * messages a server would receive, built here): returns the tool calls made, the files written and the final answer.
 */
export async function runRepairEpisode(options: {
  question: string;
  workspace: EpisodeWorkspace;
  lines?: readonly ExperienceLine[];
  seed?: number;
  requestSeed?: string;
  maxTurns?: number;
}): Promise<{ answer: string; calls: string[]; written: string[] }> {
  const instance = recognizeRepairQuestion(options.question);
  if (!instance) throw new Error("not a repair question");
  const messages: ChatRequest["messages"] = [{ role: "user", content: options.question }];
  const calls: string[] = [];
  const written: string[] = [];
  for (let turn = 0; turn < (options.maxTurns ?? 30); turn++) {
    const reply = respondRepair(instance, { model: "sim", messages } as ChatRequest, {
      seed: options.seed ?? 1,
      requestSeed: options.requestSeed ?? "0",
      lines: options.lines ?? [],
      reading: readPitfall,
    });
    if (reply.toolCalls.length === 0) return { answer: reply.content ?? "", calls, written };
    messages.push({
      role: "assistant",
      content: reply.content,
      tool_calls: reply.toolCalls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      })),
    });
    for (const call of reply.toolCalls) {
      calls.push(call.name);
      const args = JSON.parse(call.arguments) as { content?: string; code?: string };
      let output: string;
      if (call.name === "write_file") {
        await options.workspace.write(args.content ?? "");
        written.push(args.content ?? "");
        output = "wrote";
      } else if (call.name === "run_tests") output = await options.workspace.runTests();
      else output = await options.workspace.runPython(args.code ?? "");
      messages.push({ role: "tool", tool_call_id: call.id, content: output });
    }
  }
  return { answer: "(out of turns)", calls, written };
}
