import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerLearnCommand } from "../cli-commands/learn.js";
import { learnCommandOptionsSchema } from "./learn-command-options.js";

function learnCommand(): Command {
  const program = new Command().exitOverride();
  registerLearnCommand(program);
  return program.commands.find((command) => command.name() === "learn")!;
}

describe("learn's options: one schema, the declaration checked against it", () => {
  it("declares exactly the schema's keys", () => {
    const declared = learnCommand()
      .options.map((option) => option.attributeName())
      .sort();
    expect(declared).toEqual(Object.keys(learnCommandOptionsSchema.shape).sort());
  });

  it("what commander parses passes the schema: defaults, numbers, negations and choices alike", () => {
    const parse = (args: string[]) => {
      const command = learnCommand();
      command.action(() => {});
      command.parse(args, { from: "user" });
      return learnCommandOptionsSchema.safeParse(command.opts());
    };
    expect(parse([]).success).toBe(true);
    const full = parse([
      "--domain=math",
      "--train=t.jsonl",
      "--val=v.jsonl",
      "--epochs=2",
      "--batch-size=4",
      "--no-ground-truth",
      "--no-exposure",
      "--no-trace",
      "--no-baseline",
      "--on-conflict=stop",
      "--max-infra-failure-rate=0.3",
      "--mode=direct",
      "--precheck=2",
      "--sim",
      "--dry-run",
    ]);
    expect(full.success).toBe(true);
    expect(full.data).toMatchObject({
      epochs: 2,
      batchSize: 4,
      groundTruth: false,
      exposure: false,
      dryRun: true,
    });
  });
});
