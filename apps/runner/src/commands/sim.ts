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
import type { SimCorpusOptions, SimDatasetOptions, SimServeOptions } from "./sim-command-options.js";

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

/** `tfgrpo sim serve`: the simulated model server and web until Ctrl-C. */
export type { SimServeOptions };

export async function simServe(given: SimServeOptions): Promise<void> {
  const options = {
    ...given,
    port: integer("port", 0)(String(given.port)),
    seed: integer("seed", 0)(String(given.seed)),
    world: given.world === undefined ? undefined : integer("world", 0)(String(given.world)),
    latency: given.latency === undefined ? undefined : integer("latency", 0)(String(given.latency)),
  };
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
}

/** `tfgrpo sim dataset`: a synthetic task suite as JSONL. */
export type { SimDatasetOptions };

export async function simDataset(given: SimDatasetOptions): Promise<void> {
  const options = {
    domain: oneOf("domain", ["math", "web"] as const)(given.domain),
    split: oneOf<SuiteSplit>("split", suiteSplits)(given.split),
    size: integer("size", 1)(String(given.size)),
    seed: integer("seed", 0)(String(given.seed)),
    out: given.out,
  };
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
}

/** `tfgrpo sim corpus`: the simulated web of a world seed, as JSONL or a folder. */
export type { SimCorpusOptions };

export async function simCorpus(given: SimCorpusOptions): Promise<void> {
  const options = { ...given, seed: integer("seed", 0)(String(given.seed)) };
  const { documents } = createWorld(options.seed).corpus;
  if (options.folder) await writeCorpusFolder(options.out, documents);
  else await writeCorpusJsonl(options.out, documents, options.baseUrl ? { baseUrl: options.baseUrl } : {});
  process.stderr.write(
    `tfgrpo sim: wrote ${documents.length} SIMULATED web page(s) of world ${options.seed} to ${options.out}\n`,
  );
}
