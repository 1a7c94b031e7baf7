import { existsSync } from "node:fs";
import path from "node:path";
import { defaultValidationSamples } from "@tfgrpo/curator";
import { createStore } from "@tfgrpo/store";
import type { CommandOutput } from "../cli-options/command-output.js";
import { learn } from "../commands/learn.js";
import type { LearnCommandOptions } from "../commands/learn-command-options.js";
import type { LibraryUnderTest } from "../learn/evaluate-libraries.js";
import { type AblationVariant, paperAblation } from "../learn/render-ablation-table.js";
import type { AblationSettings } from "./ablation-settings.js";

/** One learning run of the ablation: a setting's run, in a database of its own, and the head library it left. */
export interface VariantRun {
  variant: Exclude<AblationVariant, "none">;
  runId: string;
  database: string;
  headVersion: number | null;
  lessons: number;
}

/**
 * Learns a setting's library in `<workspace>/<variant>/tfgrpo.db` (the full run's options with `overrides`): a
 * finished run is reused, an unfinished one resumed.
 */
export async function learnVariant(
  variant: VariantRun["variant"],
  overrides: Partial<LearnCommandOptions>,
  context: {
    workspace: string;
    settings: AblationSettings;
    config: string;
    concurrency: number;
    output: CommandOutput;
  },
): Promise<VariantRun> {
  const { workspace, settings, config, output } = context;
  const log = (line: string) => output.stderr.write(`${line}\n`);
  const runId = `${path.basename(workspace)}-${variant}`;
  const database = path.join(workspace, variant, "tfgrpo.db");
  log(`\n== ${paperAblation[variant].setting}: run ${runId} ==`);
  const existing = await storedRunStatus(database, runId);
  if (existing !== "finished") {
    // Step tables go to stderr: stdout is for the ablation table.
    await learn(
      {
        config,
        domain: settings.domain,
        train: settings.data.train,
        val: settings.data.val,
        epochs: settings.epochs,
        groupSize: settings.groupSize,
        ...(settings.batchSize ? { batchSize: settings.batchSize } : {}),
        concurrency: context.concurrency,
        groundTruth: true,
        seed: settings.seed,
        db: database,
        valK: defaultValidationSamples,
        precheck: 0,
        mode: settings.mode,
        baseline: variant === "full",
        localRoles: "actor,critic,curator",
        temperature: 0.7,
        evalTemperature: 0.3,
        ...(existing === null ? { runId } : { resume: runId }),
        ...overrides,
      },
      { stdout: output.stderr, stderr: output.stderr },
    );
  } else {
    log(`run ${runId} already finished: reusing its library`);
  }
  return { variant, runId, database, ...(await headOf(database, settings.domain)) };
}

async function storedRunStatus(database: string, runId: string): Promise<string | null> {
  if (!existsSync(database)) return null;
  const store = await createStore(database, { mustExist: true });
  try {
    return (await store.getRun(runId))?.status ?? null;
  } finally {
    await store.close();
  }
}

async function headOf(
  database: string,
  domain: string,
): Promise<{ headVersion: number | null; lessons: number }> {
  const store = await createStore(database, { mustExist: true });
  try {
    const head = await store.getHead(domain);
    return {
      headVersion: head?.version ?? null,
      lessons: head?.experiences.filter((e) => e.status !== "archived").length ?? 0,
    };
  } finally {
    await store.close();
  }
}

/** The run's head library as the evaluation names it (no library when the run committed none). */
export function libraryOf(run: VariantRun, domain: string): LibraryUnderTest {
  return run.headVersion === null
    ? { label: "none", library: null }
    : { label: `${domain}@v${run.headVersion}`, library: { domain, version: run.headVersion } };
}
