import { type Command, InvalidArgumentError } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";
import { nonNegativeInteger, positiveInteger } from "../cli-options/number-arguments.js";

function oneOfDomains(value: string): "math" | "web" {
  if (value !== "math" && value !== "web")
    throw new InvalidArgumentError("the SIMULATED world has math and web");
  return value;
}

export function registerDemoCommand(program: Command): void {
  program
    .command("demo")
    .description("Learn a library on the SIMULATED world, then compare it with no library on held-out tasks")
    .option("--dir <dir>", "where the demo's workspace goes", ".tfgrpo/demo")
    .option("--seed <n>", "world and sampling seed", nonNegativeInteger, 7)
    .option("--domain <domain>", "math or web", oneOfDomains, "math")
    .option("--train <n>", "training tasks", positiveInteger, 20)
    .option("--val <n>", "validation tasks (the acceptance gate)", positiveInteger, 30)
    .option("--test <n>", "held-out test tasks", positiveInteger, 30)
    .option("--epochs <n>", "epochs", positiveInteger, 3)
    .option("--group-size <n>", "rollouts per task", positiveInteger, 5)
    .option("--k <n>", "samples per test task", positiveInteger, 4)
    .option("--concurrency <n>", "rollouts in flight", positiveInteger, 8)
    // Checked against demoCommandOptionsSchema (commands/demo-command-options.ts), key for key, by a test.
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "demo",
        async () => (await import("../commands/demo-command-options.js")).demoCommandOptionsSchema,
        raw,
      );
      const { demo } = await import("../commands/demo.js");
      await demo(options);
    });
}
