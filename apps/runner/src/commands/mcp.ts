import { TfgrpoError } from "@tfgrpo/protocol";
import { serveMcpHttp, serveMcpStdio } from "@tfgrpo/serving";
import { isLoopbackHost } from "@tfgrpo/studio";
import { describeClientGate, resolveClientGate } from "../cli-options/client-gate-options.js";
import { requireExistingDatabase } from "../cli-options/require-existing-database.js";
import { openLibraryService } from "../roles/library.js";
import { waitForStopSignal } from "../runtime/wait-for-stop-signal.js";
import { resolveDatabase } from "./library.js";
import type { McpOptions } from "./mcp-command-options.js";

export type { McpOptions };

export interface McpDependencies {
  /** Resolves on the first stop request (SIGINT/SIGTERM). */
  waitForStop?: () => Promise<string>;
  stderr?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
}

/**
 * `tfgrpo mcp --domain D [--http PORT]`: the domain's experience library as an MCP server (tools get_experiences and
 * report_outcome, resources for the head and each version) over stdio — stdout is the protocol, everything else goes
 * to stderr — or over Streamable HTTP at http://HOST:PORT/mcp. Runs until the client closes stdin (stdio) or a
 * SIGINT/SIGTERM.
 */
export async function mcp(options: McpOptions, dependencies: McpDependencies = {}): Promise<void> {
  const stderr = dependencies.stderr ?? ((text: string) => process.stderr.write(text));
  const env = dependencies.env ?? process.env;
  const log = (line: string) => stderr(`${line}\n`);
  const host = options.host ?? "127.0.0.1";
  const token = env.TFGRPO_MCP_TOKEN || undefined;
  // Tokens and limits are checked before the database is opened: a bad tokens file is one line, nothing started.
  const gate = options.http === undefined ? undefined : resolveClientGate(options, env);
  if (options.http !== undefined && !isLoopbackHost(host) && !token && !gate?.clientTokens) {
    throw new TfgrpoError(
      "invalid_config",
      `tfgrpo mcp --host ${host}: serving beyond loopback needs a token (set TFGRPO_MCP_TOKEN, or give --client-tokens; clients send Authorization: Bearer <token>)`,
      { details: { host } },
    );
  }
  const db = resolveDatabase(options, env);
  // Never an empty database by accident: a typo in --db would serve an empty library and record outcomes nowhere.
  requireExistingDatabase(db);
  const modelsConfig = options.config || env.TFGRPO_CONFIG || undefined;
  const opened = await openLibraryService({ db, ...(modelsConfig ? { modelsConfig } : {}), log, env });
  try {
    const head = await opened.store.getHeadVersion(options.domain);
    const library = `${options.domain}${head === null ? " (no committed version yet)" : `@v${head}`}`;
    const serverOptions = { service: opened.service, domain: options.domain };
    const stop = dependencies.waitForStop ?? waitForStopSignal;
    if (options.http !== undefined) {
      const http = await serveMcpHttp({
        ...serverOptions,
        port: options.http,
        host,
        ...(token ? { token } : {}),
        ...gate,
        ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
        ...(options.sessionIdle === undefined ? {} : { idleSessionMs: options.sessionIdle * 1000 }),
        log,
      });
      log(
        `tfgrpo mcp: serving ${library} from ${db} on ${http.url} (similarity ${opened.similarity}; ` +
          `${describeClientGate(gate!)}); Ctrl-C to stop`,
      );
      const signal = await stop();
      log(`tfgrpo mcp: ${signal}: stopping`);
      await http.close();
    } else {
      const stdio = await serveMcpStdio(serverOptions);
      log(`tfgrpo mcp: serving ${library} from ${db} over stdio (similarity ${opened.similarity})`);
      await Promise.race([stdio.closed, stop()]);
      await stdio.close();
    }
  } finally {
    await opened.close();
  }
}
