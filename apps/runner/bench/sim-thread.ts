import { Worker } from "node:worker_threads";
import type { SimServerStats } from "@tfgrpo/sim";

// The sim model server on a thread of its own, as a real provider is on a machine of its own: its answers (the
// simulated policy, critic and curator) then do not take the event loop the runner's orchestration is measured on.

/** What the benchmark needs of the sim server, wherever it runs. */
export interface BenchSim {
  url: string;
  port: number;
  /** The server's counters (requests by kind) as of when the call reaches it. */
  stats(): Promise<SimServerStats>;
  close(): Promise<void>;
}

export interface SimThreadOptions {
  seed: number;
  latencyMs: number;
}

type Reply =
  | { type: "ready"; url: string; port: number }
  | { type: "stats"; id: number; stats: SimServerStats };

/** Starts the sim server in a worker thread (same loader and conditions as this process) and waits until it listens. */
export async function startSimThread(options: SimThreadOptions): Promise<BenchSim> {
  // A worker thread does not inherit the TypeScript loader this benchmark runs under: it registers it first.
  const main = new URL("./sim-thread-main.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  const bootstrap = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(main)});`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`), {
    workerData: options,
  });
  const waiting = new Map<number, (stats: SimServerStats) => void>();
  let nextId = 0;
  const ready = new Promise<{ url: string; port: number }>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) =>
      reject(new Error(`the sim thread exited with code ${code} before it listened`)),
    );
    worker.on("message", (reply: Reply) => {
      if (reply.type === "ready") resolve(reply);
      else waiting.get(reply.id)?.(reply.stats);
    });
  });
  const { url, port } = await ready;
  return {
    url,
    port,
    stats() {
      const id = nextId++;
      return new Promise<SimServerStats>((resolve) => {
        waiting.set(id, (stats) => {
          waiting.delete(id);
          resolve(stats);
        });
        worker.postMessage({ type: "stats", id });
      });
    },
    async close() {
      worker.postMessage({ type: "close" });
      await new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    },
  };
}
