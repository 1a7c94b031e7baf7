import path from "node:path";
import { loadDataset, requireReadableFile, TfgrpoError } from "@tfgrpo/protocol";
import { InvalidArgumentError } from "commander";
import { openCassette } from "../cassette/open-cassette.js";
import { artifactDirectory } from "../cli-options/artifact-directory.js";
import type { CommandOutput } from "../cli-options/command-output.js";
import { isSimulated } from "../cli-options/is-simulated.js";
import { parseRoleList } from "../cli-options/role-list.js";
import { newRunId } from "../cli-options/run-id.js";
import { createProgress } from "../cli-output/progress.js";
import { agentEstimate, estimateForCommand } from "../cost-estimate/estimate-for-command.js";
import type { CostEstimate } from "../cost-estimate/estimate-run-cost.js";
import { renderCostEstimate } from "../cost-estimate/render-cost-estimate.js";
import { useDomainSettings } from "../domain-settings/use-domain-settings.js";
import { checkpointPathFor } from "../learn/checkpoint-path.js";
import { directExperiencesAblation } from "../learn/direct-experiences-ablation.js";
import { type LearnOptions, learnOptionsSchema } from "../learn/learn-options.js";
import { renderClosing, renderStepTable } from "../learn/render-step-table.js";
import { runLearning } from "../learn/run-learning.js";
import { stopOnSignal } from "../learn/stop-on-signal.js";
import { storedLearnRun } from "../learn/stored-learn-run.js";
import { writeReport } from "../report/write-report.js";
import { createRuntime } from "../runtime/create-runtime.js";
import { loadSim, simModelsConfig, startSimWorld } from "../runtime/start-sim-world.js";
import { startTracing, traceFileFor } from "../tracing/start-tracing.js";
import { type LearnCommandOptions, learnCommandOptionsSchema } from "./learn-command-options.js";
import { learnDirectExperiences } from "./learn-direct-experiences.js";
import { resolveDatabase } from "./library.js";
import { parseCommandOptions } from "./parse-command-options.js";

/** `tfgrpo learn` as commander hands it over: the options checked against their schema, then the command. */
export async function learnFromCli(raw: unknown): Promise<void> {
  const options = parseCommandOptions("learn", learnCommandOptionsSchema, raw);
  if (options.dryRun) await learnDryRun(options);
  else await learn(options);
}

/** The user's files a learn command names, refused before anything starts: a directory, missing or unreadable. */
function checkLearnFiles(options: LearnCommandOptions): void {
  for (const [option, file, what] of [
    ["--train", options.train, "dataset"],
    ["--val", options.val, "dataset"],
    ["--config", options.config, "models config"],
  ] as const) {
    if (file !== undefined) requireReadableFile(file, { what, option, code: "invalid_input" });
  }
}

/** The learn command's work, callable from tests and the demo. */
export async function learn(
  options: LearnCommandOptions,
  output: CommandOutput = { stderr: process.stderr, stdout: process.stdout },
) {
  const log = (line: string) => output.stderr.write(`${line}\n`);
  checkLearnFiles(options);
  const db = resolveDatabase(options);
  const stored = options.resume ? await storedLearnRun(db, options.resume) : null;
  // A resumed run talks to the same simulated world it started with: the seed it was started with, not the CLI's.
  const simSeed = stored?.options?.seed ?? options.seed;
  if (options.simFaults !== undefined && !options.sim)
    throw new TfgrpoError("invalid_config", "learn --sim-faults needs --sim", {
      details: { field: "sim-faults" },
    });
  // Parsed before anything is written: a bad spec names the option and changes nothing.
  const simFaults = options.simFaults === undefined ? undefined : await parseSimFaults(options.simFaults);
  const sim = options.sim
    ? await startSimWorld({ seed: simSeed, ...(simFaults ? { faults: simFaults } : {}) })
    : null;
  try {
    if (sim)
      log(
        `SIMULATED world: sim model server at ${sim.server.url} (not a real model)${simFaults ? `, model faults at rate ${simFaults.rate}` : ""}`,
      );
    if (options.replay && options.sim)
      throw new TfgrpoError("invalid_input", "learn --replay serves recorded answers: leave out --sim", {
        details: { field: "replay" },
      });
    // A request the recording does not hold stops the run: it is not the recorded run any more.
    const replayMiss = new AbortController();
    const opened = openCassette({
      command: "learn",
      record: options.record,
      replay: options.replay,
      runId: options.runId,
      config: options.config ?? sim?.config,
      onMiss: (error) => replayMiss.abort(error),
    });
    if (opened && options.nats)
      log(`--${opened.cassette.mode} covers the roles of this process only, not remote workers`);
    // A resumed run keeps the models it was started with, unless told otherwise.
    const config = opened?.config ?? options.config ?? sim?.config ?? stored?.models ?? undefined;
    if (
      options.resume
        ? stored?.ablation === directExperiencesAblation
        : options.directExperiences !== undefined
    )
      return await learnDirectExperiences(options, {
        db,
        config,
        sim,
        output,
      });
    let start: Parameters<typeof runLearning>[0]["start"];
    if (!options.resume) {
      for (const [flag, value] of [
        ["--domain", options.domain],
        ["--train", options.train],
        ["--val", options.val],
        ["--config", config],
      ] as const) {
        if (!value) throw new InvalidArgumentError(`learn needs ${flag} (or --resume RUN)`);
      }
      const learnOptions: LearnOptions = learnOptionsSchema.parse({
        runId: opened?.runId ?? options.runId ?? newRunId("learn"),
        domain: options.domain,
        epochs: options.epochs,
        groupSize: options.groupSize,
        batchSize: options.batchSize,
        concurrency: options.concurrency,
        seed: options.seed,
        ...(options.stratifyBy !== undefined ? { stratifyBy: options.stratifyBy } : {}),
        ...(options.failureShare !== undefined ? { failureShare: options.failureShare } : {}),
        ...(options.compactTrajectoriesAfter !== undefined
          ? { compactTrajectoriesAfter: options.compactTrajectoriesAfter }
          : {}),
        temperature: options.temperature,
        exposure: options.exposure === false ? "off" : "varied",
        exposureActiveShare: options.exposureActiveShare,
        settledTaskAttempts: options.settledTaskAttempts,
        evalTemperature: options.evalTemperature,
        valK: options.valK,
        ...(options.gate !== undefined ? { gate: options.gate } : {}),
        ...(options.valMaxK !== undefined ? { valMaxK: options.valMaxK } : {}),
        ...(options.valAhead !== undefined ? { valAhead: options.valAhead } : {}),
        precheckSize: options.precheck,
        groundTruth: options.groundTruth ? "required" : "none",
        mode: options.mode,
        budgetUsd: options.budgetUsd,
        baselineEachRound: options.baseline,
        maxInfraFailureRate: options.maxInfraFailureRate,
        onConflict: options.onConflict,
      });
      start = {
        options: learnOptions,
        data: { train: path.resolve(options.train!), val: path.resolve(options.val!) },
        extraConfig: {
          simulated: isSimulated(config, Boolean(sim)),
          models: config ? path.resolve(config) : null,
          ...(options.agent ? { agent: path.resolve(options.agent) } : {}),
        },
      };
    }
    const runId = start?.options.runId ?? options.resume!;
    // The domain's settings (--settings, the environment, or beside the tasks), said and checked before anything
    // runs: a domain whose tasks need tools or a reward that are not configured is refused here.
    const domain = start?.options.domain ?? stored?.options?.domain;
    const data = start?.data ?? stored?.data ?? {};
    const settings = domain
      ? await useDomainSettings({
          domain,
          ...(options.settings !== undefined ? { settings: options.settings } : {}),
          dataFiles: [
            ...(data.train ? [{ option: "--train", file: data.train }] : []),
            ...(data.val ? [{ option: "--val", file: data.val }] : []),
          ],
          // Unreadable tasks are the run's to report, in its own words, right after.
          tasks: data.train ? await loadDataset(data.train, { domain }).catch(() => []) : [],
          localRoles: parseRoleList(options.localRoles),
          mode: start?.options.mode ?? stored?.options?.mode ?? options.mode,
          log,
        })
      : {};
    if (start && config) {
      // What the run is expected to cost, before it spends anything. An estimate that fails never stops the run nor
      // adds to its messages: bad data or config is reported once, by the run itself, right after.
      await printLearnEstimate(options, config, db, output.stderr, "estimate before the first call").catch(
        () => {},
      );
    }
    opened?.finish(runId);
    if (opened)
      log(
        `${opened.cassette.mode === "record" ? "recording model traffic into" : "replaying model traffic from"} ${opened.cassette.directory}`,
      );
    await using tracing = await startTracing({
      serviceName: "tfgrpo-runner",
      jsonlFile: traceFileFor(artifactDirectory(db), runId),
      disabled: options.trace === false,
    });
    if (tracing.enabled) log(`tracing to ${tracing.destinations.join(" and ")}`);
    // A resumed run keeps the agent module it was started with, unless told otherwise.
    const agent = options.agent ?? stored?.agent ?? undefined;
    if (agent) log(`rollouts by the team's agent: ${agent}`);
    await using runtime = await createRuntime({
      db,
      ...(options.nats ? { nats: options.nats } : {}),
      ...(config ? { config } : {}),
      localRoles: parseRoleList(options.localRoles),
      concurrency: options.concurrency,
      log,
      ...(opened ? { cassette: opened.cassette } : {}),
      ...(agent ? { agent } : {}),
      settings,
    });
    using stop = stopOnSignal(log);
    const outcome = await runLearning({
      signal: AbortSignal.any([stop.signal, replayMiss.signal]),
      bus: runtime.bus,
      store: runtime.store,
      checkpointPath: checkpointPathFor(db),
      ...(start ? { start } : {}),
      ...(options.resume ? { resume: options.resume } : {}),
      progress: (label) => {
        opened?.cassette.setStep(label);
        const bar = createProgress({ label, total: 0, stream: output.stderr });
        return {
          update: (done, total) => {
            bar.setTotal(total);
            bar.update(done);
          },
          done: () => bar.done(),
        };
      },
      log,
    });
    output.stdout.write(`\nrun ${outcome.runId}${start?.extraConfig?.simulated ? " (SIMULATED)" : ""}\n`);
    output.stdout.write(`${renderStepTable(outcome.history)}\n`);
    if (outcome.closing) output.stdout.write(`${renderClosing(outcome.closing)}\n`);
    output.stdout.write(
      `head: ${outcome.headVersion === null ? "none" : `${outcome.options.domain}@v${outcome.headVersion}`}${outcome.stoppedBy ? ` (stopped: ${outcome.stoppedBy})` : ""}\n`,
    );
    const reportFile = options.report ?? path.join(artifactDirectory(db), "reports", `${outcome.runId}.html`);
    const written = await writeReport(runtime.store, outcome.runId, reportFile);
    output.stdout.write(`report: ${written}\n`);
    return outcome;
  } finally {
    await sim?.close();
  }
}

/** `learn --dry-run`: the expected calls, tokens and USD per role, from the data, options, prompts and prices. */
export async function learnDryRun(
  options: LearnCommandOptions,
  output: CommandOutput = { stderr: process.stderr, stdout: process.stdout },
): Promise<CostEstimate> {
  for (const [flag, value] of [
    ["--domain", options.domain],
    ["--train", options.train],
  ] as const) {
    if (!value) throw new InvalidArgumentError(`learn --dry-run needs ${flag}`);
  }
  checkLearnFiles(options);
  const config = options.config ?? (options.sim ? simModelsConfig : undefined);
  if (!config) throw new InvalidArgumentError("learn --dry-run needs --config (or --sim)");
  return printLearnEstimate(
    options,
    config,
    resolveDatabase(options),
    output.stdout,
    "dry run, no model called",
  );
}

async function printLearnEstimate(
  options: LearnCommandOptions,
  config: string,
  db: string,
  stream: { write(text: string): unknown },
  title: string,
): Promise<CostEstimate> {
  const estimate = await estimateForCommand({
    kind: "learn",
    domain: options.domain!,
    tasks: path.resolve(options.train!),
    ...(options.val ? { val: path.resolve(options.val) } : {}),
    epochs: options.epochs,
    groupSize: options.groupSize,
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    valK: options.valK,
    ...(options.gate !== undefined ? { gate: options.gate } : {}),
    ...(options.valMaxK !== undefined ? { valMaxK: options.valMaxK } : {}),
    mode: options.mode,
    config,
    db,
    // The sim's config reads its port; an estimate needs none.
    env: { SIM_PORT: "0", ...process.env },
    ...agentEstimate(options, "learn"),
  });
  stream.write(`${renderCostEstimate(estimate, `learn ${title}`)}\n`);
  return estimate;
}

/** `--sim-faults SPEC` through the sim's own parser; its error names the option the user typed. */
async function parseSimFaults(spec: string) {
  const { parseFaultSpec } = await loadSim();
  try {
    return parseFaultSpec(spec);
  } catch (error) {
    throw new TfgrpoError("invalid_config", (error as Error).message.replace(/^--faults /, "--sim-faults "), {
      details: { field: "sim-faults", spec },
    });
  }
}
