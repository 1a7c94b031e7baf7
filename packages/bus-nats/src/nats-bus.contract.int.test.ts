import { busContractTests } from "@tfgrpo/protocol/testing";
import { afterAll, beforeAll } from "vitest";
import type { BusLogger } from "./bus-logger.js";
import { createNatsBus } from "./nats-bus.js";
import { type NatsServerHandle, startNatsServer } from "./testing/start-nats-server.js";

let server: NatsServerHandle;
let pairs = 0;
const quiet: BusLogger = { warn: () => {}, error: () => {} };

beforeAll(async () => {
  server = await startNatsServer();
});
afterAll(async () => {
  await server.stop();
});

// One server for the suite; each pair gets its own prefix, hence its own subjects and streams.
busContractTests("nats", async () => {
  const options = {
    servers: server.url,
    streamPrefix: `CONTRACT${++pairs}`,
    ackWaitMs: 5000,
    resultRetryDelayMs: 50,
    closeTimeoutMs: 2000,
    logger: quiet,
  };
  const a = await createNatsBus({ ...options, name: "contract-a" });
  const b = await createNatsBus({ ...options, name: "contract-b" });
  return {
    a,
    b,
    cleanup: async () => {
      await Promise.all([a.close(), b.close()]);
    },
  };
});
