// The actor's limits hold for a team's own tool module as for the built-ins and MCP tools: the calls per rollout,
// the output the model reads, and the module's per-call time limit (a tool error the model reads and gets past).
import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { ToolMessage } from "@langchain/core/messages";
import type { RolloutRequest, Task } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createToolResources, openToolset, type ToolsConfig } from "@tfgrpo/tools";
import { describe, expect, it } from "vitest";
import { createActor } from "./create-actor.js";
import { createScriptedModels, finalMessage, toolCallMessage } from "./testing/scripted-chat-model.js";

const task: Task = { id: "count-1", domain: "counter", question: "Count as far as you may." };
const request = (attempt = 0): RolloutRequest => ({
  runId: "run-module",
  groupId: "g-count",
  task,
  attempt,
  library: null,
});

async function moduleFile(directory: string): Promise<string> {
  const core = import.meta.resolve("@langchain/core/tools");
  const zod = import.meta.resolve("zod");
  const file = path.join(directory, "counter-tools.mjs");
  await writeFile(
    file,
    `import { tool } from ${JSON.stringify(core)};
import { z } from ${JSON.stringify(zod)};
export default () => {
  let count = 0;
  return [
    tool(async () => String(++count), { name: "next", description: "The next number", schema: z.object({}) }),
    tool(async ({ n }) => "y".repeat(n), {
      name: "ramble", description: "n characters", schema: z.object({ n: z.number().int() }),
    }),
    tool((_input, config) => new Promise((_resolve, reject) => {
      config.signal?.addEventListener("abort", () => reject(config.signal.reason));
    }), { name: "stall", description: "Never answers", schema: z.object({}) }),
  ];
};`,
  );
  return file;
}

function actorWith(tools: ToolsConfig, script: Parameters<typeof createScriptedModels>[0], limits = {}) {
  const resources = createToolResources(tools);
  const models = createScriptedModels(script);
  const actor = createActor({
    models,
    tools: (domain, names, context) => openToolset({ domain, resources, tools: names, task: context.task }),
    config: {
      domains: { counter: { tools: ["module:counter"], systemPrompt: "Count." } },
      ...limits,
    },
  });
  return { actor, models, close: () => resources.close() };
}

const lastToolText = (messages: unknown[]) => String((messages.at(-1) as ToolMessage).content);

describe("a tool module under the actor's limits", () => {
  it("counts its calls against maxToolCalls: the call past the limit is refused and never runs", async () => {
    await using temporary = await temporaryDirectory();
    const file = await moduleFile(temporary.path);
    const { actor, models, close } = actorWith(
      { modules: { counter: { path: file } } },
      (_messages, call) =>
        call < 3 ? toolCallMessage([{ name: "next", args: { call } }]) : finalMessage("\\boxed{done}"),
      { maxToolCalls: 2 },
    );
    try {
      const trajectory = await actor.rollout(request());
      // The module answered 1 and 2; the third call was refused before it reached the module.
      expect(trajectory.toolCalls.map((call) => call.output)).toEqual([
        "1",
        expect.stringMatching(/^2\n\[This was the last of 2 allowed tool calls/),
      ]);
      expect(lastToolText(models.calls[3]!.messages)).toMatch(
        /^Tool call refused: the limit of 2 tool calls/,
      );
      expect(trajectory.stopReason).toBe("answered");
    } finally {
      await close();
    }
  });

  it("cuts its output to the module's maxOutputChars, and what the model reads to toolOutputModelChars", async () => {
    await using temporary = await temporaryDirectory();
    const file = await moduleFile(temporary.path);
    const { actor, models, close } = actorWith(
      { modules: { counter: { path: file, maxOutputChars: 5000 } } },
      (_messages, call) =>
        call === 0
          ? toolCallMessage([{ name: "ramble", args: { n: 100_000 } }])
          : finalMessage("\\boxed{done}"),
      // Stored in full: what is kept is what the module's cap left.
      { toolOutputModelChars: 2000, toolOutputStoredChars: 200_000 },
    );
    try {
      const trajectory = await actor.rollout(request());
      const output = trajectory.toolCalls[0]!.output;
      expect(output).toMatch(/^y{3500}\n\[\.\.\. 95000 characters truncated \.\.\.\]\ny{1500}$/);
      const seen = lastToolText(models.calls[1]!.messages);
      expect(seen.length).toBeLessThanOrEqual(2000);
      expect(seen).toMatch(/^y+\n\[\.\.\. \d+ characters omitted \.\.\.\]\n/);
    } finally {
      await close();
    }
  });

  it("answers a call past the module's timeoutMs with a tool error the model reads, and the rollout goes on", async () => {
    await using temporary = await temporaryDirectory();
    const file = await moduleFile(temporary.path);
    const { actor, models, close } = actorWith(
      { modules: { counter: { path: file, timeoutMs: 150 } } },
      (_messages, call) =>
        call === 0 ? toolCallMessage([{ name: "stall", args: {} }]) : finalMessage("\\boxed{gave up}"),
    );
    try {
      const trajectory = await actor.rollout(request());
      expect(lastToolText(models.calls[1]!.messages)).toMatch(
        /^Error: stall did not finish within 150 ms \(the timeoutMs of tool module "counter"\)/,
      );
      expect(trajectory.stopReason).toBe("answered");
      expect(trajectory.finalAnswer).toBe("gave up");
    } finally {
      await close();
    }
  });
});
