import { type Command, Option } from "commander";
import { checkedOptions } from "../cli-options/checked-options.js";

/** `tfgrpo sim serve | dataset | corpus`: the offline simulated world, standalone. */
export function registerSimCommand(program: Command): void {
  const sim = program
    .command("sim")
    .description(
      "The offline simulated world (SIMULATED model server and synthetic tasks, not a real model)",
    );

  sim
    .command("serve")
    .description("Run the simulated OpenAI-compatible model server and simulated web until Ctrl-C")
    .addOption(new Option("--port <port>", "port to listen on (0 picks a free one)").default(0))
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .addOption(new Option("--seed <seed>", "seed of every simulated decision").default(1))
    .option("--world <seed>", "world seed (tasks and web pages it knows); defaults to --seed")
    .option(
      "--faults <spec>",
      'injected faults, e.g. "rate=0.2,kinds=429,500,hang,malformed,truncated,latency=50"',
    )
    .option("--latency <ms>", "mean latency added to every call (jitter: half of it)")
    .option("--quiet", "no critic/curator noise (exact behaviour)")
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "sim serve",
        async () => (await import("../commands/sim-command-options.js")).simServeCommandOptionsSchema,
        raw,
      );
      const { simServe } = await import("../commands/sim.js");
      await simServe(options);
    });

  sim
    .command("dataset")
    .description(
      "Write a synthetic task suite as JSONL ({id, domain, question, answer, meta}), labelled simulated",
    )
    .requiredOption("--domain <domain>", "math or web")
    .requiredOption("--split <split>", "train, val or test")
    .requiredOption("--size <n>", "number of tasks")
    .addOption(
      new Option(
        "--seed <seed>",
        "world seed (use the sim server's seed so it recognises the tasks)",
      ).default(1),
    )
    .requiredOption("--out <file>", "JSONL file to write")
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "sim dataset",
        async () => (await import("../commands/sim-command-options.js")).simDatasetCommandOptionsSchema,
        raw,
      );
      const { simDataset } = await import("../commands/sim.js");
      await simDataset(options);
    });

  sim
    .command("corpus")
    .description("Write the simulated web of a world seed (for a local-corpus search index)")
    .addOption(new Option("--seed <seed>", "world seed").default(1))
    .requiredOption("--out <path>", "JSONL file to write, or a folder with --folder")
    .option(
      "--base-url <url>",
      "a running sim server's corpus URL: documents get the addresses it serves them at",
    )
    .option("--folder", "write one HTML file per page plus corpus.jsonl instead of one JSONL file")
    .action(async (raw: unknown) => {
      const options = await checkedOptions(
        "sim corpus",
        async () => (await import("../commands/sim-command-options.js")).simCorpusCommandOptionsSchema,
        raw,
      );
      const { simCorpus } = await import("../commands/sim.js");
      await simCorpus(options);
    });
}
