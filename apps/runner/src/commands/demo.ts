import { mkdir } from "node:fs/promises";
import path from "node:path";
import { defaultValidationSamples } from "@tfgrpo/curator";
import { loadDataset } from "@tfgrpo/protocol";
import { createSuite, writeSuiteJsonl } from "@tfgrpo/sim";
import { newRunId } from "../cli-options/run-id.js";
import {
  describeGroupGains,
  renderEvaluationGroups,
  renderEvaluationTable,
} from "../learn/render-evaluation-table.js";
import { resolveLibraries, runEvaluation } from "../learn/run-evaluation.js";
import { resolveGroupBy } from "../learn/summarize-evaluation.js";
import { collectLearningEvents, describeLearningEvents } from "../report/learning-events.js";
import { writeReport } from "../report/write-report.js";
import { createRuntime } from "../runtime/create-runtime.js";
import { startSimWorld } from "../runtime/start-sim-world.js";
import type { DemoOptions } from "./demo-command-options.js";
import { learn } from "./learn.js";

export type { DemoOptions };

/**
 * A complete learning run on the SIMULATED world, then the learned head library against no library on held-out
 * tasks of the same families: what `npm run demo` shows on a fresh clone, offline.
 */
export async function demo(
  options: DemoOptions,
  output = { stderr: process.stderr, stdout: process.stdout },
) {
  const write = (text: string) => output.stdout.write(text);
  const started = Date.now();
  const directory = path.resolve(options.dir, newRunId("demo"));
  await mkdir(directory, { recursive: true });
  write(
    `tfgrpo demo — SIMULATED world (packages/sim): a test world, not a real model.\nworkspace: ${directory}\n\n`,
  );
  await using sim = await startSimWorld({ seed: options.seed });
  const files = { train: "", val: "", test: "" };
  for (const split of ["train", "val", "test"] as const) {
    files[split] = path.join(directory, `${options.domain}-${split}.jsonl`);
    await writeSuiteJsonl(
      files[split],
      createSuite({ domain: options.domain, seed: options.seed, size: options[split], split }),
    );
  }
  write(
    `datasets: ${options.train} train, ${options.val} validation, ${options.test} held-out test tasks (${options.domain})\n\n`,
  );
  const db = path.join(directory, "tfgrpo.db");
  const outcome = await learn(
    {
      config: sim.config,
      domain: options.domain,
      train: files.train,
      val: files.val,
      epochs: options.epochs,
      groupSize: options.groupSize,
      concurrency: options.concurrency,
      groundTruth: true,
      seed: options.seed,
      db,
      // The default samples per validation task: a gate that reads one sample per task saturates at the first good
      // library and cannot tell a noisy candidate from its head.
      valK: defaultValidationSamples,
      precheck: 0,
      mode: "tools",
      baseline: true,
      localRoles: "actor,critic,curator",
      temperature: 0.7,
      evalTemperature: 0.3,
    },
    output,
  );

  write(
    `\nHeld-out evaluation: ${options.test} test tasks, k=${options.k}, the same seeds for both libraries\n`,
  );
  await using runtime = await createRuntime({
    db,
    config: sim.config,
    localRoles: ["actor", "critic", "curator"],
    concurrency: options.concurrency,
    log: (line) => output.stderr.write(`${line}\n`),
  });
  const tasks = await loadDataset(files.test, { domain: options.domain, requireAnswer: true });
  const refs = outcome.headVersion === null ? ["none"] : ["none", `${options.domain}@head`];
  const evaluation = await runEvaluation({
    bus: runtime.bus,
    store: runtime.store,
    runId: outcome.runId,
    evaluationId: "held-out-test",
    title: "Held-out test: learned library vs. no library (SIMULATED)",
    data: files.test,
    tasks,
    libraries: await resolveLibraries(runtime.store, options.domain, refs),
    // Math test tasks carry familySplit: the gain on families seen in training, and on held-out ones.
    groupBy: resolveGroupBy(tasks, undefined),
    k: options.k,
    temperature: 0.3,
    seed: options.seed + 1000,
    concurrency: options.concurrency,
  });
  write(`${renderEvaluationTable(evaluation)}\n`);
  const groups = renderEvaluationGroups(evaluation);
  if (groups) write(`\n${groups}\n`);
  const events = await collectLearningEvents(runtime.store, options.domain, outcome.runId);
  const report = await writeReport(
    runtime.store,
    outcome.runId,
    path.join(directory, "reports", `${outcome.runId}.html`),
  );
  const [none, learned] = evaluation.rows;
  if (none && learned) {
    write(
      `\nMean@${options.k}: no library ${(none.meanAtK.estimate * 100).toFixed(1)}% -> learned library ${(learned.meanAtK.estimate * 100).toFixed(1)}% (Δ ${((learned.deltaVsReference?.estimate ?? 0) * 100).toFixed(1)} points, 95% CI [${((learned.deltaVsReference?.low ?? 0) * 100).toFixed(1)}, ${((learned.deltaVsReference?.high ?? 0) * 100).toFixed(1)}])\n`,
    );
    const gains = describeGroupGains(evaluation);
    if (gains.length > 0) {
      write(
        "In-family tasks come from the families training and validation drew from; out-of-family tasks from held-out " +
          "families the library never saw (a gain there would mean something leaks):\n",
      );
      for (const line of gains) write(`  ${line}\n`);
    }
  } else {
    write("\nNo library version was committed, so there is nothing to compare with no library.\n");
  }
  write("\nGate and lifecycle events of the learning run:\n");
  for (const line of describeLearningEvents(events, options.seed)) write(`  ${line}\n`);
  write(`report: ${report}\ndemo finished in ${((Date.now() - started) / 1000).toFixed(0)} s (SIMULATED)\n`);
  return { outcome, evaluation, report, directory };
}
