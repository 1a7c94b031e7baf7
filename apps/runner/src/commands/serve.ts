import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type Bus, type ServeEvent, TfgrpoError } from "@tfgrpo/protocol";
import { resolveClientGate } from "../cli-options/client-gate-options.js";
import { requireModelsConfig } from "../cli-options/require-models-config.js";
import { loadRole } from "../roles/registry.js";
import { createBus } from "../runtime/create-bus.js";
import { natsSettingsFromEnv } from "../runtime/nats-settings.js";
import { waitForStopSignal } from "../runtime/wait-for-stop-signal.js";
import { startTracing } from "../tracing/start-tracing.js";
import type { ServeOptions } from "./serve-command-options.js";

export type { ServeOptions };

export interface ServeDependencies {
  connect?: (nats: string, name: string) => Promise<Bus>;
  /** Resolves on the first stop request (SIGINT/SIGTERM) with its name. */
  waitForStop?: () => Promise<string>;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** On a terminal, one status line replaces the per-job lines. */
  isTTY?: boolean;
  now?: () => Date;
}

/** One line per job start and end, for logs: `<time> job-end tfgrpo.actor.rollout job=t1 attempt=1 ok 1520ms`. */
export function formatServeEvent(event: ServeEvent, at: Date): string {
  const what = event.mode === "job" ? `job=${event.jobId} attempt=${event.attempt}` : "request";
  const head = `${at.toISOString()} ${event.type} ${event.subject} ${what}`;
  if (event.type === "job-start") return head;
  if (event.ok) return `${head} ok ${Math.round(event.durationMs)}ms`;
  const reason = event.error ? ` ${event.error.code}: ${event.error.message.replace(/\s+/g, " ")}` : "";
  return `${head} failed ${Math.round(event.durationMs)}ms${reason}`;
}

/**
 * Runs one role as a worker until stopped: its subjects are served on the NATS Bus (jobs pulled from the shared
 * durable queues, requests answered in queue groups), and a stop finishes the jobs in flight before exiting.
 */
export async function serve(options: ServeOptions, dependencies: ServeDependencies = {}): Promise<void> {
  const stdout = dependencies.stdout ?? ((text: string) => process.stdout.write(text));
  const stderr = dependencies.stderr ?? ((text: string) => process.stderr.write(text));
  const isTTY = dependencies.isTTY ?? process.stdout.isTTY === true;
  const now = dependencies.now ?? (() => new Date());
  const log = (line: string) => stderr(`${isTTY ? "\r\x1b[2K" : ""}${line}\n`);

  for (const module of options.module ?? []) await import(pathToFileURL(path.resolve(module)).href);
  // An unknown role fails before anything connects.
  const factory = await loadRole(options.role);
  const clientGate = resolveClientGate(options, process.env);
  const nats = options.nats ?? process.env.TFGRPO_NATS_URL;
  if (!nats) {
    throw new TfgrpoError(
      "invalid_config",
      "serve needs a NATS server: pass --nats nats://host:4222 (or set TFGRPO_NATS_URL)",
    );
  }
  if (options.agent && options.role !== "actor")
    throw new TfgrpoError("invalid_config", `serve --agent is for --role actor, not --role ${options.role}`);
  // The team's agent brings its own model: a worker running it needs no models config (one is used for retrieval).
  const config = options.agent
    ? options.config || process.env.TFGRPO_CONFIG || undefined
    : requireModelsConfig(options.config, "serve");
  // A worker's spans are children of the runner's (trace headers on every job and request); they go to the OTLP
  // endpoint of the standard OTEL_* variables, or a local file with TFGRPO_TRACE_FILE.
  await using tracing = await startTracing({ serviceName: `tfgrpo-${options.role}` });
  if (tracing.enabled) log(`tracing to ${tracing.destinations.join(" and ")}`);
  const name = `tfgrpo serve ${options.role} ${os.hostname()}:${process.pid}`;
  const bus = await (
    dependencies.connect ??
    ((servers, connectionName) =>
      createBus({ nats: servers, name: connectionName, ...natsSettingsFromEnv() }))
  )(nats, name);
  let role: Awaited<ReturnType<typeof factory>> | undefined;
  try {
    role = await factory({
      bus,
      log,
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(config === undefined ? {} : { config }),
      ...(options.agent === undefined ? {} : { agent: options.agent }),
      ...(options.db === undefined ? {} : { db: options.db }),
      clientGate,
    });
    if (role.endpoints.length === 0) {
      throw new TfgrpoError("invalid_config", `role "${options.role}" serves no subjects`);
    }
    const counts = { running: 0, done: 0, failed: 0 };
    let lastStatus = 0;
    const showStatus = (force = false) => {
      const at = now().getTime();
      if (!force && at - lastStatus < 100) return;
      lastStatus = at;
      stderr(
        `\r\x1b[2K${options.role}: ${counts.running} running, ${counts.done} done, ${counts.failed} failed`,
      );
    };
    const handle = await role.serve(bus, {
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      now: () => now().getTime(),
      onEvent: (event) => {
        if (event.type === "job-start") counts.running++;
        else {
          counts.running--;
          if (event.ok) counts.done++;
          else counts.failed++;
        }
        if (isTTY) showStatus();
        else stdout(`${formatServeEvent(event, now())}\n`);
      },
    });
    const served = role.endpoints
      .map((subject) => `${subject.subject.name} (${subject.mode === "job" ? "jobs" : "requests"})`)
      .join(", ");
    log(`tfgrpo serve: role ${options.role} serving ${served} on ${nats}; Ctrl-C to stop`);

    const signal = await (
      dependencies.waitForStop ??
      (() =>
        waitForStopSignal({
          onSecond: () => {
            stderr("tfgrpo serve: stopping now, in-flight jobs return to the queue\n");
            process.exit(130);
          },
        }))
    )();
    log(`tfgrpo serve: ${signal}: finishing ${counts.running} in-flight job(s); again to stop at once`);
    await handle.close();
    if (isTTY) showStatus(true);
    log(`tfgrpo serve: stopped (${counts.done} done, ${counts.failed} failed)`);
  } finally {
    await role?.close();
    await bus.close();
  }
}
