import { parentPort, workerData } from "node:worker_threads";
import { createSimServer } from "@tfgrpo/sim";
import type { SimThreadOptions } from "./sim-thread.js";

// Body of the sim thread (see sim-thread.ts): serves until told to close, answers stats requests in between.
const options = workerData as SimThreadOptions;
const port = parentPort!;
const sim = await createSimServer({
  seed: options.seed,
  latency: { meanMs: options.latencyMs, jitterMs: 0 },
});
port.on("message", (message: { type: "stats"; id: number } | { type: "close" }) => {
  if (message.type === "stats") port.postMessage({ type: "stats", id: message.id, stats: sim.stats() });
  else void sim.close().then(() => port.close());
});
port.postMessage({ type: "ready", url: sim.url, port: sim.port });
