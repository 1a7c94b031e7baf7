import { writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ToolMessage } from "@langchain/core/messages";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { openToolset } from "./open-toolset.js";
import { createToolResources } from "./tool-resources.js";

const task = { id: "t1", domain: "slow", question: "Use the tools." };

/**
 * A module whose tools hang (one honours its signal, one ignores it) or answer at length; `calls` records what the
 * hanging ones saw, read back by the test through the same module instance.
 */
async function writeModule(directory: string): Promise<string> {
  const core = import.meta.resolve("@langchain/core/tools");
  const zod = import.meta.resolve("zod");
  const file = path.join(directory, "slow-tools.mjs");
  await writeFile(
    file,
    `import { tool } from ${JSON.stringify(core)};
import { z } from ${JSON.stringify(zod)};
export const calls = [];
export default [
  tool((_input, config) => new Promise((_resolve, reject) => {
    const call = { tool: "wait_politely", aborted: false };
    calls.push(call);
    config.signal?.addEventListener("abort", () => { call.aborted = true; reject(config.signal.reason); });
  }), { name: "wait_politely", description: "Waits until stopped", schema: z.object({}) }),
  tool(() => { calls.push({ tool: "wait_forever" }); return new Promise(() => {}); },
    { name: "wait_forever", description: "Never answers", schema: z.object({}) }),
  tool(async ({ n }) => "x".repeat(n), {
    name: "long_text", description: "Answers n characters", schema: z.object({ n: z.number().int() }),
  }),
  tool(async () => "quick", { name: "quick", description: "Answers at once", schema: z.object({}) }),
];`,
  );
  return file;
}

describe("tool modules under per-call limits", () => {
  it("stops a call past the module's timeoutMs (aborting its signal) and answers the model with a tool error", async () => {
    await using temporary = await temporaryDirectory();
    const file = await writeModule(temporary.path);
    const resources = createToolResources({
      domains: { slow: ["module:slow"] },
      modules: { slow: { path: file, timeoutMs: 200 } },
    });
    try {
      const toolset = await openToolset({ domain: "slow", resources, task });
      const byName = (name: string) => toolset.tools.find((tool) => tool.name === name)!;
      const { calls } = (await import(pathToFileURL(file).href)) as {
        calls: { tool: string; aborted?: boolean }[];
      };
      const expected =
        /^Error: wait_politely did not finish within 200 ms \(the timeoutMs of tool module "slow"\)/;
      await expect(byName("wait_politely").invoke({})).resolves.toMatch(expected);
      expect(calls).toEqual([{ tool: "wait_politely", aborted: true }]);
      // A tool that ignores its signal is abandoned all the same.
      await expect(byName("wait_forever").invoke({})).resolves.toMatch(/^Error: wait_forever did not finish/);
      // Invoked with a tool call (as LangGraph's ToolNode does), the error is a ToolMessage marked as one.
      const message = await byName("wait_politely").invoke({
        type: "tool_call",
        id: "call-1",
        name: "wait_politely",
        args: {},
      });
      expect(message).toBeInstanceOf(ToolMessage);
      expect(message).toMatchObject({ tool_call_id: "call-1", status: "error" });
      expect(String((message as ToolMessage).content)).toMatch(/did not finish within 200 ms/);
      // Within its time a tool answers as before, and the caller's own abort still throws.
      await expect(byName("quick").invoke({})).resolves.toBe("quick");
      const controller = new AbortController();
      const aborted = byName("wait_forever").invoke({}, { signal: controller.signal });
      controller.abort(new Error("the rollout was cancelled"));
      await expect(aborted).rejects.toThrow("the rollout was cancelled");
      await toolset.close();
    } finally {
      await resources.close();
    }
  });

  it("cuts a result over the module's maxOutputChars, head and tail kept", async () => {
    await using temporary = await temporaryDirectory();
    const file = await writeModule(temporary.path);
    const resources = createToolResources({
      domains: { slow: ["module:slow"] },
      modules: { slow: { path: file, maxOutputChars: 1000 } },
    });
    try {
      const toolset = await openToolset({ domain: "slow", resources, task });
      const tool = toolset.tools.find((candidate) => candidate.name === "long_text")!;
      const text = (await tool.invoke({ n: 50_000 })) as string;
      expect(text.length).toBeLessThan(1100);
      expect(text).toMatch(/^x{700}\n\[\.\.\. 49000 characters truncated \.\.\.\]\nx{300}$/);
      expect(await tool.invoke({ n: 999 })).toBe("x".repeat(999));
      await toolset.close();
    } finally {
      await resources.close();
    }
  });
});
