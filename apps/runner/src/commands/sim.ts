import { TfgrpoError } from "@tfgrpo/protocol";
import {
  createSimServer,
  createSuite,
  createWorld,
  parseFaultSpec,
  quietNoise,
  SIMULATED_LABEL,
  type SuiteSplit,
  simModelNames,
  suiteSplits,
  writeCorpusFolder,
  writeCorpusJsonl,
  writeSuiteJsonl,
} from "@tfgrpo/sim";
import type { Command } from "commander";

function integer(name: string, min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) {
      throw new TfgrpoError("invalid_input", `--${name} must be an integer >= ${min}, got "${value}"`, {
        details: { field: name, value },
      });
    }
    return n;
  };
}

function oneOf<T extends string>(name: string, allowed: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(allowed as readonly string[]).includes(value)) {
      throw new TfgrpoError(
        "invalid_input",
        `--${name} must be one of ${allowed.join(", ")}, got "${value}"`,
        {
          details: { field: name, value },
        },
      );
    }
    return value as T;
  };
}

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
    .option("--port <port>", "port to listen on (0 picks a free one)", integer("port", 0), 0)
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--seed <seed>", "seed of every simulated decision", integer("seed", 0), 1)
    .option(
      "--world <seed>",
      "world seed (tasks and web pages it knows); defaults to --seed",
      integer("world", 0),
    )
    .option(
      "--faults <spec>",
      'injected faults, e.g. "rate=0.2,kinds=429,500,hang,malformed,truncated,latency=50"',
    )
    .option("--latency <ms>", "mean latency added to every call (jitter: half of it)", integer("latency", 0))
    .option("--quiet", "no critic/curator noise (exact behaviour)")
    .action(
      async (options: {
        port: number;
        host: string;
        seed: number;
        world?: number;
        faults?: string;
        latency?: number;
        quiet?: boolean;
      }) => {
        const faults = options.faults ? parseFaultSpec(options.faults) : undefined;
        const server = await createSimServer({
          seed: options.seed,
          host: options.host,
          port: options.port,
          ...(options.world === undefined ? {} : { world: options.world }),
          ...(faults ? { faults } : {}),
          ...(options.latency ? { latency: { meanMs: options.latency, jitterMs: options.latency / 2 } } : {}),
          ...(options.quiet ? { noise: quietNoise } : {}),
        });
        process.stdout.write(
          [
            `tfgrpo sim: ${SIMULATED_LABEL}`,
            `OpenAI base URL: ${server.url}`,
            `Simulated web:   ${server.corpusUrl} (search: ${server.corpusUrl}/search?q=..., corpus: ${server.corpusUrl}/documents.jsonl)`,
            `Models:          ${simModelNames.join(", ")} (any name works; behaviour follows the prompt)`,
            `Seed ${server.seed}, world ${server.world.seed}${faults ? `, faults rate ${faults.rate}` : ""}. Ctrl-C to stop.`,
            "",
          ].join("\n"),
        );
        await new Promise<void>((resolve) => {
          const stop = () => resolve();
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
        await server.close();
        const stats = server.stats();
        process.stdout.write(
          `tfgrpo sim: stopped after ${stats.requests} request(s), ${stats.promptTokens} prompt tokens (${stats.cachedTokens} cached), ${stats.completionTokens} completion tokens\n`,
        );
      },
    );

  sim
    .command("dataset")
    .description(
      "Write a synthetic task suite as JSONL ({id, domain, question, answer, meta}), labelled simulated",
    )
    .requiredOption("--domain <domain>", "math or web", oneOf("domain", ["math", "web"] as const))
    .requiredOption("--split <split>", "train, val or test", oneOf<SuiteSplit>("split", suiteSplits))
    .requiredOption("--size <n>", "number of tasks", integer("size", 1))
    .option(
      "--seed <seed>",
      "world seed (use the sim server's seed so it recognises the tasks)",
      integer("seed", 0),
      1,
    )
    .requiredOption("--out <file>", "JSONL file to write")
    .action(
      async (options: {
        domain: "math" | "web";
        split: SuiteSplit;
        size: number;
        seed: number;
        out: string;
      }) => {
        const tasks = createSuite({
          domain: options.domain,
          split: options.split,
          size: options.size,
          seed: options.seed,
        });
        await writeSuiteJsonl(options.out, tasks);
        const families = new Set(tasks.map((task) => String(task.meta?.family)));
        process.stderr.write(
          `tfgrpo sim: wrote ${tasks.length} SIMULATED ${options.domain} ${options.split} task(s) from ${families.size} families (seed ${options.seed}) to ${options.out}\n`,
        );
      },
    );

  sim
    .command("corpus")
    .description("Write the simulated web of a world seed (for a local-corpus search index)")
    .option("--seed <seed>", "world seed", integer("seed", 0), 1)
    .requiredOption("--out <path>", "JSONL file to write, or a folder with --folder")
    .option(
      "--base-url <url>",
      "a running sim server's corpus URL: documents get the addresses it serves them at",
    )
    .option("--folder", "write one HTML file per page plus corpus.jsonl instead of one JSONL file")
    .action(async (options: { seed: number; out: string; baseUrl?: string; folder?: boolean }) => {
      const { documents } = createWorld(options.seed).corpus;
      if (options.folder) await writeCorpusFolder(options.out, documents);
      else
        await writeCorpusJsonl(options.out, documents, options.baseUrl ? { baseUrl: options.baseUrl } : {});
      process.stderr.write(
        `tfgrpo sim: wrote ${documents.length} SIMULATED web page(s) of world ${options.seed} to ${options.out}\n`,
      );
    });
}
