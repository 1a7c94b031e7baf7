import path from "node:path";
import { inSpan, loadDataset, requireReadableFile, spanAttributes } from "@tfgrpo/protocol";
import { InvalidArgumentError } from "commander";
import { openCassette } from "../cassette/open-cassette.js";
import { artifactDirectory } from "../cli-options/artifact-directory.js";
import type { CommandOutput } from "../cli-options/command-output.js";
import { isSimulated } from "../cli-options/is-simulated.js";
import { parseRoleList } from "../cli-options/role-list.js";
import { newRunId } from "../cli-options/run-id.js";
import { createProgress } from "../cli-output/progress.js";
import { agentEstimate, estimateForCommand } from "../cost-estimate/estimate-for-command.js";
import { renderCostEstimate } from "../cost-estimate/render-cost-estimate.js";
import { renderTransferTable, withActorModel } from "../cross-model/evaluate-across-actors.js";
import { useDomainSettings } from "../domain-settings/use-domain-settings.js";
import { buildControls, serveControls, withControls } from "../learn/control-libraries.js";
import { renderEvaluationGroups, renderEvaluationTable } from "../learn/render-evaluation-table.js";
import { resolveLibraries, runEvaluation } from "../learn/run-evaluation.js";
import type { StoredEvaluation } from "../learn/stored-evaluation.js";
import { resolveGroupBy } from "../learn/summarize-evaluation.js";
import { createRuntime } from "../runtime/create-runtime.js";
import { simModelsConfig, startSimWorld } from "../runtime/start-sim-world.js";
import { startTracing, traceFileFor } from "../tracing/start-tracing.js";
import type { EvalCommandOptions } from "./eval-command-options.js";
import { resolveDatabase } from "./library.js";

export type { EvalCommandOptions };

/** Evaluates one or more libraries side by side on the same tasks and seeds, and prints the table. */
export async function evaluate(
  options: EvalCommandOptions,
  output: CommandOutput = { stderr: process.stderr, stdout: process.stdout },
): Promise<StoredEvaluation | undefined> {
  const log = (line: string) => output.stderr.write(`${line}\n`);
  requireReadableFile(options.data, { what: "dataset", option: "--data" });
  if (options.library.length === 0)
    throw new InvalidArgumentError("eval needs at least one --library (e.g. none, math@head)");
  if (options.dryRun) {
    const config = options.config ?? (options.sim ? simModelsConfig : undefined);
    if (!config) throw new InvalidArgumentError("eval --dry-run needs --config models.yaml (or --sim)");
    const estimate = await estimateForCommand({
      kind: "eval",
      domain: options.domain,
      tasks: options.data,
      k: options.k,
      libraries: options.library.length * (options.actorModel ? 2 : 1),
      mode: options.mode,
      config,
      db: resolveDatabase(options),
      env: { SIM_PORT: "0", ...process.env },
      ...agentEstimate(options, "eval"),
    });
    output.stdout.write(`${renderCostEstimate(estimate, "eval dry run, no model called")}\n`);
    return undefined;
  }
  if (options.actorModel && options.agent)
    throw new InvalidArgumentError("eval --actor-model compares tfgrpo's actor models: leave out --agent");
  if (options.actorModel) return evaluateAcrossActors(options, output);
  if (options.replay && options.sim)
    throw new InvalidArgumentError("eval --replay serves recorded answers: leave out --sim");
  const tasks = await loadDataset(options.data, { domain: options.domain, requireAnswer: true });
  // Found, said and checked before any world starts: a domain without its tools or reward is refused here.
  const settings = await useDomainSettings({
    domain: options.domain,
    ...(options.settings !== undefined ? { settings: options.settings } : {}),
    dataFiles: [{ option: "--data", file: options.data }],
    tasks,
    localRoles: parseRoleList(options.localRoles),
    mode: options.mode,
    log,
  });
  const groupBy = resolveGroupBy(tasks, options.groupBy);
  const controls = Boolean(options.controls || options.controlDomain !== undefined);
  const sim = options.sim ? await startSimWorld({ seed: options.seed }) : null;
  try {
    const replayMiss = new AbortController();
    const opened = openCassette({
      command: "eval",
      record: options.record,
      replay: options.replay,
      runId: options.runId,
      config: options.config ?? sim?.config,
      onMiss: (error) => replayMiss.abort(error),
    });
    opened?.cassette.setStep("eval rollouts");
    const config = opened?.config ?? options.config ?? sim?.config;
    if (!config) throw new InvalidArgumentError("eval needs --config models.yaml (or --sim)");
    await using runtime = await createRuntime({
      db: resolveDatabase(options),
      ...(options.nats ? { nats: options.nats } : {}),
      config,
      localRoles: parseRoleList(options.localRoles),
      concurrency: options.concurrency,
      log,
      ...(opened ? { cassette: opened.cassette } : {}),
      ...(options.agent ? { agent: options.agent } : {}),
      settings,
    });
    const requested = await resolveLibraries(runtime.store, options.domain, options.library);
    const built = controls
      ? await buildControls({
          store: runtime.store,
          domain: options.domain,
          libraries: requested,
          ...(options.controlDomain !== undefined ? { controlDomain: options.controlDomain } : {}),
          seed: options.seed,
        })
      : { controls: [], notes: [] };
    for (const note of built.notes) log(note);
    // Placebo libraries are served from memory for this evaluation only: nothing is written to the library store.
    const withdraw = serveControls(runtime, built.controls);
    const libraries = withControls(requested, built.controls);
    const runId = opened?.runId ?? options.runId ?? newRunId("eval");
    opened?.finish(runId);
    await using _tracing = await startTracing({
      serviceName: "tfgrpo-runner",
      jsonlFile: traceFileFor(artifactDirectory(resolveDatabase(options)), runId),
      disabled: options.trace === false,
    });
    const simulated = isSimulated(config, Boolean(sim));
    await runtime.store.createRun({
      id: runId,
      kind: "eval",
      domain: options.domain,
      status: "running",
      config: {
        libraries: libraries.map((l) => l.label),
        data: path.resolve(options.data),
        k: options.k,
        seed: options.seed,
        simulated,
        controls,
        groupBy,
      },
      startedAt: new Date().toISOString(),
      finishedAt: null,
    });
    const bar = createProgress({
      label: "eval rollouts",
      total: tasks.length * libraries.length * options.k,
      stream: output.stderr,
    });
    // One trace for the evaluation: every rollout and model call below it (`tfgrpo trace RUN` reads it).
    const evaluation = await inSpan(
      `eval ${runId}`,
      { root: true, attributes: { [spanAttributes.runId]: runId, [spanAttributes.domain]: options.domain } },
      () =>
        runEvaluation({
          bus: runtime.bus,
          store: runtime.store,
          runId,
          evaluationId: "eval",
          title: `Evaluation on ${path.basename(options.data)}${simulated ? " (SIMULATED)" : ""}`,
          data: path.resolve(options.data),
          tasks,
          libraries,
          groupBy,
          k: options.k,
          temperature: options.temperature,
          seed: options.seed,
          concurrency: options.concurrency,
          mode: options.mode,
          onProgress: (done, total) => {
            bar.setTotal(total);
            bar.update(done);
          },
        }),
    );
    bar.done();
    withdraw();
    // A replay that met a request the recording does not hold is not the recorded evaluation.
    if (replayMiss.signal.aborted) throw replayMiss.signal.reason;
    await runtime.store.updateRun(runId, { status: "finished", finishedAt: new Date().toISOString() });
    if (options.json) {
      output.stdout.write(
        `${JSON.stringify({ runId, simulated, tasks: tasks.length, ...evaluation }, null, 2)}\n`,
      );
      return evaluation;
    }
    output.stdout.write(`\n${evaluation.title} — run ${runId}, ${tasks.length} tasks, k=${options.k}\n`);
    output.stdout.write(`${renderEvaluationTable(evaluation)}\n`);
    const groups = renderEvaluationGroups(evaluation);
    if (groups) output.stdout.write(`\n${groups}\n`);
    if (built.controls.length > 0) {
      output.stdout.write(
        "\ncontrols are placebo libraries built for this evaluation only (not in the library list): keyword stubs " +
          "(each entry cut to <= 3 content words), shuffled (each entry's situation with another entry's action), " +
          "other domain (another domain's lessons). A lift they share is not specific to the lessons.\n",
      );
    }
    if (simulated)
      output.stdout.write("SIMULATED world: these numbers are not a claim about any real model.\n");
    return evaluation;
  } finally {
    await sim?.close();
  }
}

/**
 * `eval --actor-model NAME`: the same libraries, tasks and seeds under the configured actor and under NAME, then
 * Mean@k side by side: lessons learned by one model need not transfer to another.
 */
async function evaluateAcrossActors(
  options: EvalCommandOptions,
  output: CommandOutput,
): Promise<StoredEvaluation | undefined> {
  const config = options.config ?? (options.sim ? simModelsConfig : undefined);
  if (!config) throw new InvalidArgumentError("eval --actor-model needs --config models.yaml (or --sim)");
  const other = await withActorModel(config, options.actorModel!);
  try {
    const runId = options.runId ?? newRunId("eval");
    const base = { ...options, actorModel: undefined, runId: undefined };
    const first = await evaluate({ ...base, runId: `${runId}-configured` }, output);
    const second = await evaluate(
      { ...base, config: other.file, runId: `${runId}-${options.actorModel}` },
      output,
    );
    if (!first || !second) return first;
    output.stdout.write(
      `\nTransfer: the same libraries, tasks and seeds with the configured actor and with ${options.actorModel}\n`,
    );
    output.stdout.write(
      `${renderTransferTable([
        { model: "configured", evaluation: first },
        { model: options.actorModel!, evaluation: second },
      ])}\n`,
    );
    return first;
  } finally {
    await other.dispose();
  }
}
