// Library service benchmark: get_experiences at 10,000 entries in process and over NATS on loopback (a real
// nats-server), and report_outcome's sustained rate into the embedded SQLite store (a file, WAL).
// The library: the two real youtu-agent libraries repeated with varied wording up to 10,000 entries (5% candidates,
// 10% in conflict groups, varied stats); embeddings are the actor test kit's hashed 256-d vectors, computed in
// process (the benchmark measures the service, not an embedding provider).
// Run: pnpm --filter @tfgrpo/serving bench
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createHashedEmbed, realExperiences } from "@tfgrpo/actor/testing";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { libraryExperiences, type Operation } from "@tfgrpo/protocol";
import { createStore, type StatsDelta } from "@tfgrpo/store";
import { createLibraryService } from "../src/service/in-process-library-service.js";
import { createLibraryRole } from "../src/service/library-role.js";

if (process.env.FORCE_JS === "1") (WebAssembly as unknown as { validate: () => boolean }).validate = () => false;
const size = 10_000;
const base = [...realExperiences("math"), ...realExperiences("web")];
const qualifiers = [
  "in contests",
  "for olympiad tasks",
  "when time is short",
  "on the web",
  "for long proofs",
];
const tasks = [
  "How many lattice paths from (0,0) to (6,6) avoid the diagonal?",
  "Find the sum of all angles x in [0, 360) with sin(x) = cos(2x).",
  "Which company acquired the maker of the first commercial web browser, and in which year?",
  "A triangle has sides 13, 14, 15. Find the radius of its inscribed circle.",
  "What is the population of the capital of the country that hosted the 1998 Winter Olympics?",
  "Compute the number of positive divisors of 2^10 * 3^5 that are perfect squares.",
  "Find the expected maximum of three fair dice.",
  "According to the official documentation, what is the default port of the service?",
];

let state = 12345;
const next = () => {
  state = (state * 1103515245 + 12345) & 0x7fffffff;
  return state / 0x7fffffff;
};

function quantiles(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return {
    p50Ms: at(0.5).toFixed(3),
    p95Ms: at(0.95).toFixed(3),
    p99Ms: at(0.99).toFixed(3),
    meanMs: (sorted.reduce((s, t) => s + t, 0) / sorted.length).toFixed(3),
  };
}

const dir = mkdtempSync(path.join(os.tmpdir(), "tfgrpo-serving-bench-"));
const store = await createStore(path.join(dir, "bench.db"));
try {
  const ops: Operation[] = Array.from({ length: size }, (_, index) => {
    const source = base[index % base.length]!;
    const round = Math.floor(index / base.length);
    return {
      op: "add",
      text:
        round === 0
          ? source.text
          : `${source.text} Especially ${qualifiers[round % qualifiers.length]} (${round}).`,
      reason: "bench",
      status: next() < 0.05 ? "candidate" : "active",
      ...(next() < 0.1 ? { conflictGroup: `group-${index % 300}` } : {}),
    };
  });
  const buildStart = performance.now();
  await store.applyOperations("bench", ops, { parent: null, state: "committed" });
  const stats: StatsDelta[] = Array.from({ length: size }, (_, index) => {
    const shown = Math.floor(next() * 60);
    return { id: `G${index}`, shown, success: shown * next(), sumDelta: shown * (next() - 0.5) * 0.4 };
  });
  await store.updateStats("bench", stats);
  const libraryMs = performance.now() - buildStart;

  // The default stats refresh (every 5 s, in the background): its worst case is the last row.
  const service = createLibraryService({ store, embed: createHashedEmbed(256).embed });
  const firstStart = performance.now();
  await service.getExperiences({ domain: "bench", task: tasks[0]! });
  const firstMs = performance.now() - firstStart;

  const rows: Record<string, string | number>[] = [];
  // In process: selection + recording the selection (a SQLite write) per call.
  {
    // A longer warm-up than the NATS case's: this case runs first, right after the 10k-entry index was built.
    for (let i = 0; i < 300; i++)
      await service.getExperiences({ domain: "bench", task: `${tasks[i % tasks.length]} (warm ${i})` });
    const times: number[] = [];
    let shown = 0;
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < 1000; i++) {
      const start = performance.now();
      const reply = await service.getExperiences({
        domain: "bench",
        task: `${tasks[i % tasks.length]} (#${i})`,
      });
      times.push(performance.now() - start);
      shown = reply.entries.length;
    }
    const cpu = process.cpuUsage(cpuStart);
    rows.push({
      case: "get_experiences in process",
      entries: size,
      calls: times.length,
      ...quantiles(times),
      cpuMeanMs: ((cpu.user + cpu.system) / 1000 / times.length).toFixed(3),
      shown,
      goal: "p50 < 5 ms",
    });
  }

  console.table(rows);
  process.exit(0);
  // Over NATS on loopback: a client bus -> nats-server -> the library role -> back.
  {
    const nats = await startNatsServer();
    const serverBus = await createNatsBus({ servers: nats.url, name: "bench-library" });
    const clientBus = await createNatsBus({ servers: nats.url, name: "bench-agent" });
    // Latency of the service itself: no rate limit (one connection makes all the calls, far past 100 a second).
    const handle = await createLibraryRole(service, store, { rateLimit: false }).serve(serverBus);
    try {
      for (let i = 0; i < 50; i++) {
        await clientBus.request(libraryExperiences, { domain: "bench", task: tasks[i % tasks.length]! });
      }
      const times: number[] = [];
      const cpuStart = process.cpuUsage();
      for (let i = 0; i < 1000; i++) {
        const start = performance.now();
        await clientBus.request(libraryExperiences, {
          domain: "bench",
          task: `${tasks[i % tasks.length]} (n${i})`,
        });
        times.push(performance.now() - start);
      }
      const cpu = process.cpuUsage(cpuStart);
      rows.push({
        case: "get_experiences over NATS",
        cpuMeanMs: ((cpu.user + cpu.system) / 1000 / times.length).toFixed(3),
        entries: size,
        calls: times.length,
        ...quantiles(times),
        goal: "p50 < 10 ms",
      });
    } finally {
      await handle.close();
      await clientBus.close();
      await serverBus.close();
      await nats.stop();
    }
  }

  // report_outcome: selections of 20 entries recorded first, then reported one after another for the rate, then by
  // 32 clients at once (their reports share transactions: the store's group commit).
  const count = 5000;
  {
    const servedAt = new Date().toISOString();
    for (let i = 0; i < count; i++) {
      const entryIds = Array.from({ length: 20 }, (_, j) => `G${(i * 37 + j * 491) % size}`);
      await store.recordSelection({
        selectionId: `bench-${i}`,
        domain: "bench",
        version: 1,
        entryIds: [...new Set(entryIds)],
        explorationIds: [],
        task: tasks[i % tasks.length]!,
        servedAt,
      });
    }
    const times: number[] = [];
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      await service.reportOutcome({
        selectionId: `bench-${i}`,
        success: i % 3 !== 0,
        feedback: i % 3 === 0 ? "the final answer was off by one" : "correct",
        summary: `Tried [G${(i * 37) % size}] then checked the result.`,
      });
      times.push(performance.now() - t);
    }
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    rows.push({
      cpuMeanMs: ((cpu.user + cpu.system) / 1000 / count).toFixed(3),
      perCpuSecond: Math.round((count * 1e6) / (cpu.user + cpu.system)),
      case: "report_outcome into SQLite",
      entries: size,
      calls: count,
      ...quantiles(times),
      perSecond: Math.round(count / seconds),
      goal: ">= 1,000/s",
    });
  }
  {
    const servedAt = new Date().toISOString();
    for (let i = 0; i < count; i++) {
      await store.recordSelection({
        selectionId: `bench-c${i}`,
        domain: "bench",
        version: 1,
        entryIds: [...new Set(Array.from({ length: 20 }, (_, j) => `G${(i * 53 + j * 389) % size}`))],
        explorationIds: [],
        task: tasks[i % tasks.length]!,
        servedAt,
      });
    }
    const clients = 32;
    const times: number[] = [];
    let next = 0;
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = next++; i < count; i = next++) {
          const t = performance.now();
          await service.reportOutcome({
            selectionId: `bench-c${i}`,
            success: i % 3 !== 0,
            feedback: "correct",
          });
          times.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    rows.push({
      case: `report_outcome, ${clients} clients at once`,
      entries: size,
      calls: count,
      ...quantiles(times),
      cpuMeanMs: ((cpu.user + cpu.system) / 1000 / count).toFixed(3),
      perCpuSecond: Math.round((count * 1e6) / (cpu.user + cpu.system)),
      perSecond: Math.round(count / seconds),
      goal: ">= 1,000/s",
    });
  }

  // The most eager stats refresh (statsMaxAgeMs 0): every call finds the index stale, so reloads of the 10,000
  // entries are paced only by their own cost (50 x the last load); requests keep the previous index meanwhile.
  {
    const fresh = createLibraryService({ store, embed: createHashedEmbed(256).embed, statsMaxAgeMs: 0 });
    await fresh.getExperiences({ domain: "bench", task: tasks[0]! });
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const start = performance.now();
      await fresh.getExperiences({ domain: "bench", task: tasks[i % tasks.length]! });
      times.push(performance.now() - start);
    }
    rows.push({
      case: "get_experiences, statsMaxAgeMs 0",
      entries: size,
      calls: times.length,
      ...quantiles(times),
    });
  }

  console.log(
    `library service (Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores); ` +
      `10k-entry library written in ${libraryMs.toFixed(0)} ms, first selection (snapshot + embeddings + index) ${firstMs.toFixed(0)} ms`,
  );
  console.table(rows);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
