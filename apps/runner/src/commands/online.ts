import { stat } from "node:fs/promises";
import path from "node:path";
import { loadDataset, readUserText, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { type OnlineConfigInput, type OnlineEvent, resolveOnlineConfig } from "@tfgrpo/serving";
import { createStore } from "@tfgrpo/store";
import { parse as parseYaml } from "yaml";
import { isSimulated } from "../cli-options/is-simulated.js";
import { requireExistingDatabase } from "../cli-options/require-existing-database.js";
import { requireModelsConfig } from "../cli-options/require-models-config.js";
import { newRunId } from "../cli-options/run-id.js";
import { createOnlineStack } from "../online/create-online-stack.js";
import { runOnlineLearnerService } from "../online/online-learner-service.js";
import { serveOnlineOverNats } from "../online/online-over-nats.js";
import { runOnlineSession } from "../online/online-session.js";
import { renderOnlineSummary, summarizeOnlineSession } from "../online/online-summary.js";
import { startSimWorld } from "../runtime/start-sim-world.js";
import { waitForStopSignal } from "../runtime/wait-for-stop-signal.js";
import { startMetrics } from "../tracing/start-metrics.js";
import { resolveDatabase } from "./library.js";
import type { OnlineCommandOptions } from "./online-command-options.js";

export type { OnlineCommandOptions };

export interface OnlineCommandOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Resolves when the NATS session should stop (default: SIGINT/SIGTERM). */
  waitForStop?: () => Promise<string>;
}

/** `--online FILE` (YAML or JSON) with the flags on top; bad fields name the file. */
async function onlineSettings(options: OnlineCommandOptions): Promise<OnlineConfigInput> {
  let settings: OnlineConfigInput = {};
  if (options.online) {
    const text = await readUserText(options.online, {
      what: "online settings",
      code: "invalid_config",
      option: "--online",
    });
    const parsed = /\.json$/i.test(options.online)
      ? safeParseJson<OnlineConfigInput>(text)
      : (() => {
          try {
            return { success: true as const, value: parseYaml(text) as OnlineConfigInput };
          } catch (error) {
            return { success: false as const, error: (error as Error).message };
          }
        })();
    if (!parsed.success)
      throw new TfgrpoError(
        "invalid_config",
        `--online ${options.online}: ${typeof parsed.error === "string" ? parsed.error : String(parsed.error)}`,
      );
    settings = (parsed.value ?? {}) as OnlineConfigInput;
  }
  return {
    ...settings,
    trigger: {
      ...settings.trigger,
      ...(options.reflectEvery !== undefined ? { batchSize: options.reflectEvery } : {}),
      ...(options.dropBelow !== undefined ? { dropBelow: options.dropBelow } : {}),
    },
    rollout: {
      ...settings.rollout,
      ...(options.canaryShare !== undefined ? { canaryShare: options.canaryShare } : {}),
    },
  };
}

/**
 * `tfgrpo online`: a serving-and-learning session. With `--tasks FILE` a ReAct agent serves the file's tasks as a
 * stream through the library service; with `--nats URL` the library is served on the Bus and learns from the
 * outcomes other agents report. Either way the learner reflects, canaries, gates and rolls back while serving.
 */
export async function online(options: OnlineCommandOptions, output: OnlineCommandOutput): Promise<void> {
  const log = (line: string) => output.stderr(`${line}\n`);
  if (!options.domain) throw new TfgrpoError("invalid_input", "online needs --domain (e.g. --domain math)");
  if ([options.tasks, options.nats, options.learner].filter(Boolean).length !== 1)
    throw new TfgrpoError(
      "invalid_input",
      "online needs exactly one source of traffic: --tasks FILE or --nats URL, or --learner (learn from the outcomes every server records in --db)",
    );
  if (options.learner) return onlineLearner(options, output);
  // Checked before anything starts or is written: a bad field names the file (or the flags) and the field.
  const settings = resolveOnlineConfig(await onlineSettings(options), options.online ?? "online settings");
  const tasks = options.tasks
    ? await loadDataset(options.tasks, { domain: options.domain, requireAnswer: true })
    : null;
  if (tasks && tasks.length === 0) throw new TfgrpoError("invalid_dataset", `${options.tasks}: no tasks`);
  const sim = options.sim ? await startSimWorld({ seed: options.seed }) : null;
  try {
    if (sim) log(`SIMULATED world: sim model server at ${sim.server.url} (not a real model)`);
    const config = sim?.config ?? requireModelsConfig(options.config, "online");
    const runId = options.runId ?? newRunId("online");
    const answers = new Map((tasks ?? []).map((task) => [task.question, task.answer ?? null]));
    const onEvent = (event: OnlineEvent) => log(describeEvent(event));
    const stack = await createOnlineStack({
      modelsConfig: config,
      db: resolveDatabase(options),
      domain: options.domain,
      runId,
      online: settings,
      seed: options.seed,
      ...(options.budgetUsd !== undefined ? { budgetUsd: options.budgetUsd } : {}),
      groundTruth: (task) => answers.get(task) ?? null,
      ...(options.tools === false ? { agentTools: "none" as const } : {}),
      onEvent,
      log,
    });
    try {
      await stack.store.createRun({
        id: runId,
        kind: "online",
        domain: options.domain,
        status: "running",
        config: {
          options: { ...options },
          online: stack.learner.config,
          simulated: isSimulated(config, Boolean(sim)),
          models: path.resolve(config),
        },
        startedAt: new Date().toISOString(),
        finishedAt: null,
      });
      log(
        `online ${runId}: domain ${options.domain}, head ${stack.learner.state().head ?? "none (empty library)"}`,
      );
      let served: Awaited<ReturnType<typeof runOnlineSession>>["served"] = [];
      let status: "finished" | "failed" = "finished";
      try {
        if (tasks) {
          const result = await runOnlineSession({
            domain: options.domain,
            tasks,
            learner: stack.learner,
            serve: stack.serve,
            concurrency: options.concurrency,
            onProgress: ({ index, version, success }) => {
              const done = index + 1;
              if (done % 10 === 0 || done === tasks.length)
                log(
                  `online: ${done}/${tasks.length} served (last: v${version ?? "-"} ${success ? "success" : "failure"}), window success ${pct(stack.learner.state().windowRate)}`,
                );
            },
          });
          served = result.served;
          if (result.stopped === "budget")
            log(
              `online: the budget of $${options.budgetUsd} is spent: stopped after ${served.length} task(s)`,
            );
        } else {
          served = await serveOnlineOverNats({
            stack,
            domain: options.domain,
            runId,
            nats: options.nats!,
            log,
            ...(options.maxOutcomes !== undefined ? { maxOutcomes: options.maxOutcomes } : {}),
            ...(output.waitForStop ? { waitForStop: output.waitForStop } : {}),
          });
        }
      } catch (error) {
        status = "failed";
        throw error;
      } finally {
        const summary = summarizeOnlineSession({
          served,
          events: stack.learner.events,
          versions: await stack.store.listVersions(options.domain),
          runId,
          head: stack.learner.state().head,
          traffic: await stack.store.outcomeStats(options.domain).catch(() => undefined),
        });
        await stack.store.updateRun(runId, {
          status,
          finishedAt: new Date().toISOString(),
          summary: summary as unknown as Record<string, unknown>,
        });
        if (status === "finished")
          output.stdout(
            options.json
              ? `${JSON.stringify({ runId, ...summary })}\n`
              : `run ${runId}\n${renderOnlineSummary(summary)}`,
          );
      }
    } finally {
      await stack.close();
    }
  } finally {
    await sim?.close();
  }
}

/**
 * `online --learner`: the learner of one domain as a service over the database that every serving process records
 * in; waits for the domain's lease while another learner holds it. Runs until SIGINT/SIGTERM (or --max-outcomes).
 */
async function onlineLearner(options: OnlineCommandOptions, output: OnlineCommandOutput): Promise<void> {
  const log = (line: string) => output.stderr(`${line}\n`);
  const domain = options.domain!;
  const settingsNow = resolveOnlineConfig(await onlineSettings(options), options.online ?? "online settings");
  const db = resolveDatabase(options);
  requireExistingDatabase(db);
  const sim = options.sim ? await startSimWorld({ seed: options.seed }) : null;
  const store = await createStore(db);
  const runId = options.runId ?? newRunId("online");
  const stopping = new AbortController();
  await using metrics = await startMetrics({ file: options.metrics ?? null });
  try {
    if (sim) log(`SIMULATED world: sim model server at ${sim.server.url} (not a real model)`);
    if (metrics.file) log(`online learner: metrics to ${metrics.file}`);
    const config = sim?.config ?? requireModelsConfig(options.config, "online --learner");
    await store.createRun({
      id: runId,
      kind: "online",
      domain,
      status: "running",
      config: {
        options: { ...options },
        online: settingsNow,
        simulated: isSimulated(config, Boolean(sim)),
        models: path.resolve(config),
        learner: { pid: process.pid },
      },
      startedAt: new Date().toISOString(),
      finishedAt: null,
    });
    log(`online learner ${runId}: domain ${domain}, database ${db}, pid ${process.pid}`);
    let settingsStamp = options.online ? await modifiedAt(options.online) : null;
    const stopped = (output.waitForStop ?? waitForStopSignal)().then((signal) => {
      log(`online learner: ${signal}: stopping`);
      stopping.abort();
    });
    void stopped;
    let status: "stopped" | "failed" = "stopped";
    try {
      const result = await runOnlineLearnerService({
        store,
        modelsConfig: config,
        domain,
        runId,
        settings: settingsNow,
        // Settings re-read between reflections when the file changed; a bad edit is reported and ignored.
        ...(options.online
          ? {
              reloadSettings: async () => {
                const stamp = await modifiedAt(options.online!);
                if (stamp === settingsStamp) return null;
                settingsStamp = stamp;
                const next = resolveOnlineConfig(await onlineSettings(options), options.online!);
                log(`online learner: settings re-read from ${options.online}`);
                return next;
              },
            }
          : {}),
        seed: options.seed,
        ...(options.budgetUsd !== undefined ? { budgetUsd: options.budgetUsd } : {}),
        lease: {
          ...(options.leaseTtlMs !== undefined ? { ttlMs: options.leaseTtlMs } : {}),
          ...(options.renewEveryMs !== undefined ? { renewEveryMs: options.renewEveryMs } : {}),
        },
        ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
        ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}),
        ...(options.maxOutcomes !== undefined ? { maxOutcomes: options.maxOutcomes } : {}),
        signal: stopping.signal,
        onEvent: (event) => log(describeEvent(event)),
        log,
      });
      const summary = {
        observed: result.observed,
        stopped: result.stopped,
        state: result.learner?.state() ?? null,
      };
      await store.updateRun(runId, { status, finishedAt: new Date().toISOString(), summary });
      output.stdout(
        options.json
          ? `${JSON.stringify({ runId, ...summary })}\n`
          : `run ${runId}: learned from ${result.observed} outcome(s)\n`,
      );
    } catch (error) {
      status = "failed";
      await store.updateRun(runId, { status, finishedAt: new Date().toISOString() }).catch(() => {});
      throw error;
    }
  } finally {
    stopping.abort();
    await store.close();
    await sim?.close();
  }
}

async function modifiedAt(file: string): Promise<number | null> {
  return stat(file).then(
    (info) => info.mtimeMs,
    () => null,
  );
}

const pct = (value: number | null) => (value === null ? "-" : `${Math.round(value * 100)}%`);

function describeEvent(event: OnlineEvent): string {
  switch (event.type) {
    case "reflection":
      return `online: reflection after #${event.at} (${event.reason}${event.windowRate === null ? "" : `, window success ${pct(event.windowRate)}`}): ${event.groups} group(s), ${event.proposals} proposal(s) -> ${event.version === null ? "no change" : `v${event.version} proposed`}`;
    case "canary-start":
      return `online: v${event.version} serves ${pct(event.share)} of traffic as a canary (head ${event.parent === null ? "empty" : `v${event.parent}`})`;
    case "gate":
      return `online: gate on v${event.version}: ${event.decision.decision} — ${event.decision.reason}`;
    case "rollback":
      return `online: ROLLBACK ${event.stage} v${event.from} -> ${event.to === null ? "empty library" : `v${event.to}`} (${pct(event.servedRate)} vs ${pct(event.referenceRate)} over ${event.window})`;
  }
}
