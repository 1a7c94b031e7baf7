// Bus benchmark: request/reply latency, job throughput (enqueue -> worker -> stored result -> consumer) and a
// multi-megabyte trajectory round trip, on the in-process Bus and on NATS (a real local nats-server, two
// connections as a runner and a worker would have). Run: pnpm --filter @tfgrpo/protocol bench
import { performance } from "node:perf_hooks";
import { type Bus, createInProcessBus, defineSubject, trajectorySchema } from "@tfgrpo/protocol";
import { z } from "zod";
import { createNatsBus } from "../src/nats-bus.js";
import { startNatsServer } from "../src/testing/start-nats-server.js";
import { bigTrajectory } from "../test/fixtures/big-trajectory.js";

const echo = defineSubject("tfgrpo.bench.echo", z.object({ n: z.number() }), z.object({ n: z.number() }));
const carry = defineSubject("tfgrpo.bench.carry", z.object({ id: z.string() }), trajectorySchema);
const trajectory = bigTrajectory(150);
const quiet = { warn: () => {}, error: () => {} };

interface Pair {
  name: string;
  caller: Bus;
  worker: Bus;
  close(): Promise<void>;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function requestLatency(pair: Pair, calls: number) {
  const handle = await pair.worker.handle(echo, async ({ n }) => ({ n }));
  for (let i = 0; i < 50; i++) await pair.caller.request(echo, { n: i });
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await pair.caller.request(echo, { n: i });
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const start = performance.now();
  await Promise.all(Array.from({ length: calls }, (_, i) => pair.caller.request(echo, { n: i })));
  const concurrentSeconds = (performance.now() - start) / 1000;
  await handle.close();
  return {
    bus: pair.name,
    case: `request/reply x${calls}`,
    p50Ms: quantile(times, 0.5).toFixed(3),
    p95Ms: quantile(times, 0.95).toFixed(3),
    "per s (all at once)": Math.round(calls / concurrentSeconds),
  };
}

async function jobThroughput(pair: Pair, jobs: number, concurrency: number, round: number) {
  const handle = await pair.worker.work(echo, async ({ n }) => ({ n }), { concurrency });
  let received = 0;
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  const consumer = await pair.caller.consumeResults(echo, `bench-${round}`, async () => {
    if (++received === jobs) done();
  });
  const start = performance.now();
  await pair.caller.enqueue(
    echo,
    Array.from({ length: jobs }, (_, i) => ({ id: `r${round}-j${i}`, input: { n: i } })),
    { replyTo: `bench-${round}` },
  );
  const enqueuedMs = performance.now() - start;
  await finished;
  const seconds = (performance.now() - start) / 1000;
  await consumer.close();
  await handle.close();
  return {
    bus: pair.name,
    case: `${jobs} jobs, worker concurrency ${concurrency}`,
    "enqueue ms": enqueuedMs.toFixed(0),
    "jobs per s (end to end)": Math.round(jobs / seconds),
  };
}

async function bigPayload(pair: Pair, calls: number) {
  const handle = await pair.worker.handle(carry, async () => trajectory);
  await pair.caller.request(carry, { id: "warm-up" });
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await pair.caller.request(carry, { id: `t${i}` });
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  await handle.close();
  return {
    bus: pair.name,
    case: `${(JSON.stringify(trajectory).length / 1024 / 1024).toFixed(1)} MB trajectory reply x${calls}`,
    p50Ms: quantile(times, 0.5).toFixed(1),
    p95Ms: quantile(times, 0.95).toFixed(1),
  };
}

const server = await startNatsServer();
const inProcessBus = createInProcessBus();
const natsOptions = { servers: server.url, logger: quiet };
const natsCaller = await createNatsBus({ ...natsOptions, name: "bench-runner" });
const natsWorker = await createNatsBus({ ...natsOptions, name: "bench-worker" });
const pairs: Pair[] = [
  { name: "in-process", caller: inProcessBus, worker: inProcessBus, close: () => inProcessBus.close() },
  {
    name: "nats",
    caller: natsCaller,
    worker: natsWorker,
    close: async () => {
      await Promise.all([natsCaller.close(), natsWorker.close()]);
    },
  },
];

const latency = [];
const throughput = [];
const payload = [];
let round = 0;
for (const pair of pairs) {
  latency.push(await requestLatency(pair, 2000));
  throughput.push(await jobThroughput(pair, 2000, 8, round++));
  throughput.push(await jobThroughput(pair, 5000, 64, round++));
  payload.push(await bigPayload(pair, 20));
}
for (const pair of pairs) await pair.close();
await server.stop();

console.log(
  `Bus benchmark (nats-server on loopback, Node ${process.version}; no-op handlers: this measures the Bus)`,
);
console.table(latency);
console.table(throughput);
console.table(payload);
