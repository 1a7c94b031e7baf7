import type { McpServerConfig } from "../langchain/tools-config.js";
import { connectMcpServer, type McpConnection } from "./mcp-connection.js";

/** The connections of `environment: shared` servers: one per server for the whole run, opened on first use. */
export interface SharedConnections {
  get(name: string, config: McpServerConfig, domain: string): Promise<McpConnection>;
  /** Drops a connection that failed, so the next attempt reconnects. */
  forget(name: string): void;
  close(): Promise<void>;
}

export function createSharedConnections(): SharedConnections {
  const connections = new Map<string, Promise<McpConnection>>();
  return {
    get(name, config, domain) {
      let connection = connections.get(name);
      if (!connection) {
        connection = connectMcpServer(name, config, { domain });
        connections.set(name, connection);
        connection.catch(() => {
          if (connections.get(name) === connection) connections.delete(name);
        });
      }
      return connection;
    },
    forget(name) {
      const connection = connections.get(name);
      connections.delete(name);
      void connection?.then((open) => open.close()).catch(() => {});
    },
    async close() {
      const open = [...connections.values()];
      connections.clear();
      await Promise.all(open.map((connection) => connection.then((c) => c.close()).catch(() => {})));
    },
  };
}
