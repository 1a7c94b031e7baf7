import type { Command } from "commander";
import { paperSimFall, simOwnFall } from "../ablation/sim-fall.js";
import { actorModeOption } from "../cli-options/actor-mode-option.js";
import { checkDomainOption } from "../cli-options/check-domain-option.js";
import { checkedOptions } from "../cli-options/checked-options.js";
import { nonNegativeInteger, positiveInteger, probability } from "../cli-options/number-arguments.js";
import { simOption } from "../cli-options/sim-option.js";

export function registerAblateCommand(program: Command): void {
  program
    .command("ablate")
    .description(
      "Reproduce the paper's ablation table: full Training-Free GRPO, G = 1, no ground truth, direct experiences and no library, side by side on held-out tasks",
    )
    .addOption(simOption("run on the SIMULATED world (its model server in-process, generated task suites)"))
    .option("--config <file>", "models config (models.yaml) for real models")
    .option("--domain <domain>", "domain of the tasks and libraries", "math")
    .option("--train <file>", "training tasks (JSONL); generated with --sim")
    .option("--val <file>", "validation tasks of the acceptance gate (JSONL); generated with --sim")
    .option("--test <file>", "held-out test tasks (JSONL, with answers); generated with --sim")
    .option("--train-size <n>", "--sim: training tasks", positiveInteger, 12)
    .option("--val-size <n>", "--sim: validation tasks", positiveInteger, 12)
    .option("--test-size <n>", "--sim: held-out test tasks", positiveInteger, 24)
    .option("--dir <dir>", "where the ablation workspace goes (one database per setting)", ".tfgrpo/ablate")
    .option("--resume <workspace>", "continue an ablation workspace (finished runs are reused)")
    .option("--seed <n>", "world, sampling and evaluation seed", nonNegativeInteger, 7)
    .option("--epochs <n>", "epochs of each learning run", positiveInteger, 2)
    .option("--group-size <n>", "G of the full method (and of the no-ground-truth run)", positiveInteger, 5)
    .option("--batch-size <n>", "tasks per learning step (default: the whole training set)", positiveInteger)
    .option("--k <n>", "samples per test task (Mean@k, Pass@k)", positiveInteger, 2)
    .option("--concurrency <n>", "rollouts and role calls in flight", positiveInteger, 8)
    .addOption(
      actorModeOption(
        "actor with tools (the paper's ReAct) or direct answers (with --sim: the same pitfalls, ~20 s instead of ~3 min)",
      ),
    )
    .option(
      "--sim-fall <p>",
      `--sim: chance the policy falls into a pitfall its prompt does not address, the other chances scaled alike (default ${paperSimFall}: about the paper's model's strength; ${simOwnFall} is the sim's own weak policy)`,
      probability,
    )
    .option(
      "--no-controls",
      "leave out the placebo controls of the full run's library (keyword stubs, shuffled lessons, another domain's lessons)",
    )
    .option(
      "--direct-lessons <n>",
      "lessons of the direct-experiences setting (default: as many as the full library holds)",
      positiveInteger,
    )
    .hook("preAction", checkDomainOption)
    // Checked against ablateCommandOptionsSchema (commands/ablate-command-options.ts), key for key, by a test.
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "ablate",
        async () => (await import("../commands/ablate-command-options.js")).ablateCommandOptionsSchema,
        raw,
      );
      const { runAblation } = await import("../ablation/run-ablation.js");
      await runAblation(options);
    });
}
