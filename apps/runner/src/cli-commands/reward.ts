import type { Command } from "commander";
import { rewardMethods } from "../cli-options/reward-methods.js";

export function registerRewardCommand(program: Command): void {
  program
    .command("reward")
    .description(
      'Score {"gold", "pred"} JSONL lines with a reward method and print {"gold","pred","reward","extracted"} per line',
    )
    .argument("<method>", `reward method: ${rewardMethods.join(" | ")}`)
    .option("-i, --input <file>", "JSONL file of cases (default: stdin)")
    .option(
      "-m, --module <path>",
      'for method "module": a JS/TS module whose default export is the reward function',
    )
    .option("--partial-credit", "math: give partial credit for partly matching sets of answers", false)
    .action(async (method: string, flags: { input?: string; module?: string; partialCredit: boolean }) => {
      const { rewardCommand } = await import("../commands/reward.js");
      await rewardCommand(method, flags);
    });
}
