import path from "node:path";
import { createStore } from "@tfgrpo/store";
import { InvalidArgumentError } from "commander";
import { artifactDirectory } from "../cli-options/artifact-directory.js";
import type { CommandOutput } from "../cli-options/command-output.js";
import { isSimulated } from "../cli-options/is-simulated.js";
import { newRunId } from "../cli-options/run-id.js";
import { learnOptionsSchema } from "../learn/learn-options.js";
import { runDirectExperiences } from "../learn/run-direct-experiences.js";
import { writeReport } from "../report/write-report.js";
import type { LearnCommandOptions } from "./learn-command-options.js";

/**
 * `learn --direct-experiences N`: the paper's baseline of lessons written without rollouts (one model call, one
 * committed version; see run-direct-experiences.ts), reported like a learn run.
 */
export async function learnDirectExperiences(
  options: LearnCommandOptions,
  context: {
    db: string;
    config: string | undefined;
    sim: { config: string } | null;
    output: CommandOutput;
  },
) {
  const { db, config, sim, output } = context;
  const log = (line: string) => output.stderr.write(`${line}\n`);
  if (!config) throw new InvalidArgumentError("learn --direct-experiences needs --config (or --sim)");
  if (options.nats) log("direct experiences: one model call made from this process; --nats is not used");
  let start: Parameters<typeof runDirectExperiences>[0]["start"];
  if (!options.resume) {
    for (const [flag, value] of [
      ["--domain", options.domain],
      ["--train", options.train],
    ] as const) {
      if (!value) throw new InvalidArgumentError(`learn --direct-experiences needs ${flag}`);
    }
    start = {
      options: learnOptionsSchema.parse({
        runId: options.runId ?? newRunId("learn"),
        domain: options.domain,
        seed: options.seed,
        groundTruth: options.groundTruth ? "required" : "none",
        mode: options.mode,
      }),
      data: {
        train: path.resolve(options.train!),
        ...(options.val ? { val: path.resolve(options.val) } : {}),
      },
      lessons: options.directExperiences!,
      extraConfig: {
        simulated: isSimulated(config, Boolean(sim)),
        models: path.resolve(config),
      },
    };
  }
  const store = await createStore(db);
  try {
    const outcome = await runDirectExperiences({
      store,
      modelsConfig: config,
      ...(start ? { start } : {}),
      ...(options.resume ? { resume: options.resume } : {}),
      log,
    });
    const simulated = Boolean((await store.getRun(outcome.runId))?.config.simulated);
    output.stdout.write(
      `\nrun ${outcome.runId}${simulated ? " (SIMULATED)" : ""}: direct experiences (ablation), no rollouts\n`,
    );
    outcome.experiences.forEach((text, index) => {
      output.stdout.write(`  ${index + 1}. ${text}\n`);
    });
    output.stdout.write(`head: ${outcome.options.domain}@v${outcome.headVersion}\n`);
    const reportFile = options.report ?? path.join(artifactDirectory(db), "reports", `${outcome.runId}.html`);
    output.stdout.write(`report: ${await writeReport(store, outcome.runId, reportFile)}\n`);
    return outcome;
  } finally {
    await store.close();
  }
}
