import type { Command } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";
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
    // Checked against rewardCommandOptionsSchema (commands/reward-command-options.ts), key for key, by a test.
    .action(async (method: string, raw: unknown) => {
      const options = await checkedOptions(
        "reward",
        async () => (await import("../commands/reward-command-options.js")).rewardCommandOptionsSchema,
        raw,
      );
      const { rewardCommand } = await import("../commands/reward.js");
      await rewardCommand(method, options);
    });
}
