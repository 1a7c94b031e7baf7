// `learn --agent ... --dry-run` (and eval's): the rollouts are the team's agent's, on the team's model, so the estimate
// prices tfgrpo's own roles from the models config and counts the agent's calls without a price (or at
// --agent-price); it never prices them at the config's actor model.
import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { describe, expect, it } from "vitest";
import { parseAgentPrice } from "../cli-options/agent-price-option.js";
import { evaluate } from "../commands/eval.js";
import { learnDryRun } from "../commands/learn.js";
import type { LearnCommandOptions } from "../commands/learn-command-options.js";
import { simModelsConfig } from "../runtime/start-sim-world.js";

const agentFile = path.resolve(import.meta.dirname, "../../../../examples/agents/langchain-agent.mjs");

function capture() {
  const chunks: string[] = [];
  return {
    output: { stderr: { write: () => true }, stdout: { write: (chunk: string) => chunks.push(chunk) > 0 } },
    text: () => chunks.join(""),
  };
}

describe("--dry-run with --agent", () => {
  it("learn: prices critic and curator, counts the agent's rollouts unpriced, or at --agent-price", async () => {
    await using directory = await temporaryDirectory("tfgrpo-agent-estimate-");
    const train = path.join(directory.path, "train.jsonl");
    const val = path.join(directory.path, "val.jsonl");
    await writeSuiteJsonl(train, createSuite({ domain: "math", seed: 3, size: 6, split: "train" }));
    await writeSuiteJsonl(val, createSuite({ domain: "math", seed: 3, size: 4, split: "val" }));
    const options = {
      domain: "math",
      train,
      val,
      epochs: 1,
      groupSize: 4,
      valK: 1,
      mode: "tools",
      config: simModelsConfig,
      db: path.join(directory.path, "tfgrpo.db"),
      agent: agentFile,
    } as unknown as LearnCommandOptions;

    const unpriced = capture();
    const estimate = await learnDryRun(options, unpriced.output);
    expect(estimate.roles.map((role) => [role.role, role.priced])).toEqual([
      ["agent", false],
      ["critic", true],
      ["curator", true],
    ]);
    expect(unpriced.text()).toMatch(/rollouts by the team's agent/);
    expect(unpriced.text()).toMatch(/^ {2}agent .* calls, .* tokens, not priced$/m);
    expect(unpriced.text()).toMatch(
      /for tfgrpo's roles \(critic, curator\); the agent's calls are not in it/,
    );
    expect(unpriced.text()).not.toMatch(/^ {2}actor /m);

    const priced = capture();
    const withPrice = await learnDryRun({ ...options, agentPrice: parseAgentPrice("2,8") }, priced.output);
    expect(withPrice.roles[0]).toMatchObject({ role: "agent", priced: true });
    expect(withPrice.roles[0]!.costUsd[1]).toBeGreaterThan(0);
    expect(priced.text()).toMatch(/priced at --agent-price/);

    await expect(
      learnDryRun({ ...options, agent: undefined, agentPrice: parseAgentPrice("2,8") }, capture().output),
    ).rejects.toThrow(/--agent-price prices the rollouts of the team's agent: pass --agent too/);
  });

  it("eval: the agent's rollouts unpriced; --agent-price refuses a malformed price", async () => {
    await using directory = await temporaryDirectory("tfgrpo-agent-estimate-");
    const data = path.join(directory.path, "test.jsonl");
    await writeSuiteJsonl(data, createSuite({ domain: "math", seed: 3, size: 5, split: "test" }));
    const out = capture();
    await evaluate(
      {
        domain: "math",
        data,
        library: ["none", "math@head"],
        k: 2,
        mode: "tools",
        config: simModelsConfig,
        db: path.join(directory.path, "tfgrpo.db"),
        agent: agentFile,
        dryRun: true,
      } as never,
      out.output,
    );
    expect(out.text()).toMatch(/20 \(20–20\) rollouts by the team's agent/);
    expect(out.text()).toMatch(/^ {2}agent .* not priced$/m);
    expect(() => parseAgentPrice("2")).toThrow(/must be IN,OUT or IN,OUT,CACHED/);
    expect(() => parseAgentPrice("2,-1")).toThrow(/must be IN,OUT/);
    expect(parseAgentPrice("0.4,1.6,0.1")).toEqual({ input: 0.4, output: 1.6, cachedInput: 0.1 });
  });
});
