import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";
import { runnerVersion } from "../cli-commands/runner-version.js";
import type { EnvServeOptions } from "./env-serve-command-options.js";

export type { EnvServeOptions };

/**
 * `tfgrpo env serve tau2-retail --data D`: the retail tools over D/db.json. Over stdio the process is one
 * environment (stdout carries the protocol only); with --http each MCP session is one. Runs until stdin ends (stdio)
 * or a signal (HTTP). Only the served domain's package is loaded: a stdio server starts once per attempt, and the
 * code-repair package alone took longer to load than the whole retail server.
 */
export async function envServe(domain: string, options: EnvServeOptions): Promise<void> {
  if (domain === "code-repair") return serveRepair(options);
  if (domain !== "tau2-retail") {
    throw new TfgrpoError(
      "invalid_input",
      `env serve: unknown environment ${domain} (known: tau2-retail, code-repair)`,
    );
  }
  const { loadRetailDb, serveRetailMcpHttp, serveRetailMcpStdio } = await import("@tfgrpo/tau2-retail");
  const initial = loadRetailDb(path.join(options.data, "db.json"));
  const version = runnerVersion();
  if (options.http === undefined) {
    const handle = await serveRetailMcpStdio({ initial, version });
    await handle.closed;
    return;
  }
  const handle = await serveRetailMcpHttp({
    initial,
    version,
    port: options.http,
    ...(options.host ? { host: options.host } : {}),
    ...(options.maxSessions ? { maxSessions: options.maxSessions } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stderr.write(`tau2-retail MCP server (Streamable HTTP) at ${handle.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await handle.close();
}

/** `tfgrpo env serve code-repair --data D`: one workspace per stdio process, or per MCP session with --http. */
async function serveRepair(options: EnvServeOptions): Promise<void> {
  const { serveRepairMcpHttp, serveRepairMcpStdio } = await import("@tfgrpo/code-repair");
  const version = runnerVersion();
  if (options.http === undefined) {
    const handle = await serveRepairMcpStdio({ dataDir: options.data, version });
    await handle.closed;
    return;
  }
  const handle = await serveRepairMcpHttp({
    dataDir: options.data,
    version,
    port: options.http,
    ...(options.host ? { host: options.host } : {}),
    ...(options.maxSessions ? { maxSessions: options.maxSessions } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stderr.write(`code-repair MCP server (Streamable HTTP) at ${handle.url}\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await handle.close();
}
