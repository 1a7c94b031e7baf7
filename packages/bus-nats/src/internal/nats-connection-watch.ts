import type { NatsConnection } from "@nats-io/transport-node";
import type { BusLogger } from "../bus-logger.js";

/** What the Bus knows of its connection between the status events the NATS client reports. */
export interface ConnectionWatch {
  readonly connected: boolean;
  /** Date.now() of the last reconnect (0 before any). */
  readonly lastReconnectAt: number;
  /**
   * Resolves at the next reconnect, or when the connection closes for good. NATS drops what it buffered while
   * disconnected, and a reply due over the old connection never comes: whoever waits for one sends again then.
   */
  nextReconnect(): Promise<void>;
  /** Calls `listener` after each reconnect until the returned function is called. */
  onReconnect(listener: () => void): () => void;
}

/** Follows the connection's status events (and logs them) until it closes. */
export function watchConnection(nc: NatsConnection, logger: BusLogger): ConnectionWatch {
  let connected = true;
  let lastReconnectAt = 0;
  let next = signalOnce();
  const listeners = new Set<() => void>();
  const fire = () => {
    const fired = next;
    next = signalOnce();
    fired.resolve();
  };
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === "disconnect") {
        connected = false;
        logger.warn(`disconnected from NATS ${status.server}; reconnecting`);
      } else if (status.type === "reconnect") {
        connected = true;
        logger.info?.(`reconnected to NATS ${status.server}`);
        lastReconnectAt = Date.now();
        fire();
        for (const listener of listeners) listener();
      } else if (status.type === "error") logger.error(`NATS: ${status.error.message}`);
    }
    // Closed: nobody should wait for a reconnect that cannot come.
    connected = false;
    fire();
  })();
  return {
    get connected() {
      return connected;
    },
    get lastReconnectAt() {
      return lastReconnectAt;
    },
    nextReconnect: () => next.promise,
    onReconnect(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A promise and the function that resolves it (Node 20 has no Promise.withResolvers). */
function signalOnce(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
