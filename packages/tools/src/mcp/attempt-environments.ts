import { TfgrpoError } from "@tfgrpo/protocol";
import type { McpServerConfig } from "../langchain/tools-config.js";
import {
  createEnvironmentPool,
  type EnvironmentPool,
  type EnvironmentPoolStats,
} from "./environment-pool.js";
import { connectMcpServer, type McpConnection } from "./mcp-connection.js";

/** How many environments of each per-attempt server a run keeps warm; size 0 starts each when its attempt needs it. */
export interface EnvironmentPoolSetting {
  size: number;
  maxStarting: number;
}

export interface OpenEnvironmentOptions {
  signal?: AbortSignal;
  /**
   * Readies the attempt's environment (`environment_reset` with its task). When it fails because the server died
   * (a pooled process that crashed, a session the server dropped), the attempt gets another environment.
   */
  prepare?: (connection: McpConnection) => Promise<void>;
}

/** The environments of `environment: process | session` servers: one never-used connection per attempt. */
export interface AttemptEnvironments {
  open(
    name: string,
    config: McpServerConfig,
    domain: string,
    options?: OpenEnvironmentOptions,
  ): Promise<McpConnection>;
  /**
   * Ends an attempt's use of its environment: closed, or back to the pool when the server's reset restores everything
   * (`reuse: true`) and `clean` (no call of the attempt failed or was cut off).
   */
  release(name: string, connection: McpConnection, config: McpServerConfig, clean: boolean): Promise<void>;
  /** The warm pool of a server, once an attempt has used it; undefined without a pool. */
  stats(name: string): EnvironmentPoolStats | undefined;
  /** Closes every environment still waiting in a pool (those handed out belong to their attempts). */
  close(): Promise<void>;
}

/** Environments that die before their attempt starts are replaced this many times before the attempt fails. */
const maxReplacements = 2;

export function createAttemptEnvironments(
  setting: EnvironmentPoolSetting = { size: 0, maxStarting: 1 },
  connect: typeof connectMcpServer = connectMcpServer,
): AttemptEnvironments {
  const pools = new Map<string, EnvironmentPool>();
  let closed = false;
  const poolOf = (name: string, config: McpServerConfig, domain: string): EnvironmentPool | undefined => {
    if (setting.size === 0 || closed) return undefined;
    let pool = pools.get(name);
    if (!pool) {
      pool = createEnvironmentPool({
        size: setting.size,
        // A session is an HTTP request (the server copies its state): paced only by the pool's size. A process start
        // is CPU-bound: `maxStarting` at once.
        maxStarting: "url" in config ? Math.max(setting.maxStarting, setting.size) : setting.maxStarting,
        connect: (signal) => connect(name, config, { domain, ...(signal ? { signal } : {}) }),
      });
      pools.set(name, pool);
    }
    return pool;
  };
  return {
    async open(name, config, domain, options = {}) {
      const { signal, prepare } = options;
      for (let replaced = 0; ; replaced++) {
        const pool = poolOf(name, config, domain);
        const connection = pool
          ? await pool.acquire(signal)
          : await connect(name, config, { domain, ...(signal ? { signal } : {}) });
        try {
          await prepare?.(connection);
          return connection;
        } catch (error) {
          // Read before close(), which marks every connection closed.
          const died = connection.closed && TfgrpoError.hasCode(error, "environment_unavailable");
          await connection.close();
          if (!died || signal?.aborted || replaced >= maxReplacements) throw error;
        }
      }
    },
    async release(name, connection, config, clean) {
      const pool = pools.get(name);
      if (pool && clean && "command" in config && config.reuse) pool.release(connection);
      else await connection.close();
    },
    stats: (name) => pools.get(name)?.stats(),
    async close() {
      closed = true;
      const open = [...pools.values()];
      pools.clear();
      await Promise.all(open.map((pool) => pool.close()));
    },
  };
}
