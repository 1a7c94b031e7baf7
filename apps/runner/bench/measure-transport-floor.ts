import { performance } from "node:perf_hooks";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { createModels, loadModelsConfig } from "@tfgrpo/models";
import { simConfig } from "./bench-settings.js";
import type { BenchSim } from "./sim-thread.js";

// What a burst of C model calls costs with nothing of tfgrpo around it: the floor under a step's rollout phase on this
// machine (HTTP on loopback, the sim answering, the clients parsing). A rollout phase of C direct rollouts is one such
// burst plus tfgrpo's work, so its wall/ideal cannot be below this one's.

export interface TransportFloor {
  concurrency: number;
  /** Wall time of C concurrent calls, each layer: raw fetch, the openai SDK (models.complete), LangChain ChatOpenAI. */
  fetchMs: number;
  sdkMs: number;
  chatMs: number;
}

const system = "You are a careful math solver. Put the final answer in \\boxed{}.";
const question = (i: number) => `What is ${i} + ${i + 1}?`;

async function burst(concurrency: number, call: (i: number) => Promise<unknown>): Promise<number> {
  await Promise.all(Array.from({ length: Math.min(concurrency, 4) }, (_, i) => call(i))); // warm connections
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, i) => call(i)));
  return performance.now() - started;
}

/** Median of three bursts per layer at each concurrency. */
export async function measureTransportFloor(
  sim: BenchSim,
  concurrencies: readonly number[],
): Promise<TransportFloor[]> {
  const env = { ...process.env, SIM_PORT: String(sim.port) };
  const models = createModels(await loadModelsConfig(simConfig, { env }), { env });
  const median = async (run: () => Promise<number>) => {
    const times = [await run(), await run(), await run()].sort((a, b) => a - b);
    return times[1]!;
  };
  const rows: TransportFloor[] = [];
  for (const concurrency of concurrencies) {
    const fetchMs = await median(() =>
      burst(concurrency, async (i) => {
        const response = await fetch(`${sim.url}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer sim" },
          body: JSON.stringify({
            model: "sim-actor",
            messages: [
              { role: "system", content: system },
              { role: "user", content: question(i) },
            ],
          }),
        });
        await response.json();
      }),
    );
    const sdkMs = await median(() =>
      burst(concurrency, (i) =>
        models.complete("actor", {
          messages: [
            { role: "system", content: system },
            { role: "user", content: question(i) },
          ],
        }),
      ),
    );
    const chatMs = await median(() =>
      burst(concurrency, (i) =>
        models.chat("actor", { seed: i }).invoke([new SystemMessage(system), new HumanMessage(question(i))]),
      ),
    );
    rows.push({ concurrency, fetchMs, sdkMs, chatMs });
  }
  return rows;
}
