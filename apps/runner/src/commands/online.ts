import { readFile } from "node:fs/promises";
import path from "node:path";
import { loadDataset, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { type OnlineConfigInput, type OnlineEvent, resolveOnlineConfig } from "@tfgrpo/serving";
import { type Command, Option } from "commander";
import { parse as parseYaml } from "yaml";
import { databaseOption } from "../cli-options/database-option.js";
import { domainArgument } from "../cli-options/domain-argument.js";
import { isSimulated } from "../cli-options/is-simulated.js";
import {
  nonNegativeInteger,
  positiveInteger,
  positiveNumber,
  probability,
} from "../cli-options/number-arguments.js";
import { requireModelsConfig } from "../cli-options/require-models-config.js";
import { newRunId } from "../cli-options/run-id.js";
import { simOption } from "../cli-options/sim-option.js";
import { createOnlineStack } from "../online/create-online-stack.js";
import { serveOnlineOverNats } from "../online/online-over-nats.js";
import { runOnlineSession } from "../online/online-session.js";
import { renderOnlineSummary, summarizeOnlineSession } from "../online/online-summary.js";
import { startSimWorld } from "../runtime/start-sim-world.js";
import { resolveDatabase } from "./library.js";

export interface OnlineCommandOptions {
  config?: string;
  domain?: string;
  tasks?: string;
  nats?: string;
  db?: string;
  sim?: boolean;
  seed: number;
  concurrency: number;
  budgetUsd?: number;
  online?: string;
  reflectEvery?: number;
  dropBelow?: number;
  canaryShare?: number;
  maxOutcomes?: number;
  runId?: string;
  json?: boolean;
  /** commander's --no-tools: false when given. */
  tools?: boolean;
}

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
    const text = await readFile(options.online, "utf8").catch((error: Error) => {
      throw new TfgrpoError("invalid_config", `--online ${options.online}: cannot read: ${error.message}`);
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
  if (Boolean(options.tasks) === Boolean(options.nats))
    throw new TfgrpoError(
      "invalid_input",
      "online needs exactly one source of traffic: --tasks FILE or --nats URL",
    );
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

export function registerOnlineCommand(program: Command): void {
  program
    .command("online")
    .description(
      "Serve a library and learn while serving: reflection on a trigger, canary rollout behind the gate, automatic rollback",
    )
    .option("--config <file>", "models config (models.yaml)")
    .option("--domain <domain>", "domain of the tasks and of the library, e.g. math", domainArgument)
    .option("--tasks <file>", "a stream of tasks (JSONL with answers) served by a ReAct agent, in order")
    .option("--nats <url>", "serve the library on NATS and learn from the outcomes its clients report")
    .option("--online <file>", "online learning settings (YAML or JSON: trigger, groups, critic, rollout)")
    .option("--reflect-every <n>", "reflect every n outcomes (trigger.batchSize)", positiveInteger)
    .option(
      "--drop-below <rate>",
      "reflect at once when window success falls below this (trigger.dropBelow)",
      probability,
    )
    .option("--canary-share <share>", "share of traffic a new version serves as a canary", probability)
    .option("--max-outcomes <n>", "with --nats: stop after this many outcomes", positiveInteger)
    .option("--concurrency <n>", "tasks served at once (with --tasks)", positiveInteger, 1)
    .option("--budget-usd <usd>", "stop cleanly once the session has spent this much", positiveNumber)
    .option(
      "--seed <n>",
      "seed of the canary draw, the agent's sampling and the sim world",
      nonNegativeInteger,
      1,
    )
    .option("--run-id <id>", "id of the session's run record (default: generated)")
    .option("--no-tools", "with --tasks: the serving agent answers without tools")
    .addOption(databaseOption())
    .addOption(simOption())
    .addOption(new Option("--json", "print the summary as JSON"))
    .action(async (options: OnlineCommandOptions) => {
      await online(options, {
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
      });
    });
}
