// Retrieval benchmark: experience selection per task over a 10,000-entry library built from the two real
// libraries (test-data/youtu-agent-libraries), duplicated with varied wording and stats, with precomputed unit
// embeddings.
// Run: pnpm --filter @tfgrpo/actor bench
import os from "node:os";
import { performance } from "node:perf_hooks";
import type { Experience } from "@tfgrpo/protocol";
import { makeExperience } from "@tfgrpo/protocol/testing";
import { retrievalConfigSchema } from "../src/actor-config.js";
import { createExperienceIndex } from "../src/experience-index.js";
import { hashedEmbedding, realExperiences } from "../src/testing/index.js";

const config = retrievalConfigSchema.parse({});
const base = [...realExperiences("math"), ...realExperiences("web")];
const qualifiers = [
  "in contests",
  "for olympiad tasks",
  "when time is short",
  "on the web",
  "for long proofs",
];

function library(size: number): Experience[] {
  // A small deterministic generator so stats vary without Math.random.
  let state = 12345;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  return Array.from({ length: size }, (_, index) => {
    const source = base[index % base.length]!;
    const round = Math.floor(index / base.length);
    const shown = Math.floor(next() * 60);
    return makeExperience({
      id: `G${index}`,
      text:
        round === 0
          ? source.text
          : `${source.text} Especially ${qualifiers[round % qualifiers.length]} (${round}).`,
      domain: source.domain,
      status: next() < 0.05 ? "candidate" : "active",
      conflictGroup: next() < 0.1 ? `group-${index % 300}` : undefined,
      stats: { shown, success: shown * next(), sumDelta: shown * (next() - 0.5) * 0.4, lastUsedVersion: 1 },
    });
  });
}

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

interface Row {
  case: string;
  entries: number;
  dims: number;
  buildMs: string;
  meanMs: string;
  cpuMeanMs: string;
  p50Ms: string;
  p95Ms: string;
  maxMs: string;
  shown: number;
  tokens: number;
}

function measure(name: string, size: number, dims: number, iterations: number): Row {
  const experiences = library(size);
  const vectors = new Map(experiences.map((entry) => [entry.id, hashedEmbedding(entry.text, dims)]));
  const taskVectors = tasks.map((task) => hashedEmbedding(task, dims));
  const buildStart = performance.now();
  const index = createExperienceIndex({ experiences, config, embeddingOf: (entry) => vectors.get(entry.id) });
  const buildMs = performance.now() - buildStart;
  for (let warm = 0; warm < 50; warm++) index.select(taskVectors[warm % taskVectors.length]!);
  const times: number[] = [];
  let last = index.select(taskVectors[0]!);
  // CPU time is steady on a busy machine, where wall time also counts the time other processes had the core.
  const cpuStart = process.cpuUsage();
  for (let iteration = 0; iteration < iterations; iteration++) {
    const start = performance.now();
    last = index.select(taskVectors[iteration % taskVectors.length]!);
    times.push(performance.now() - start);
  }
  const cpu = process.cpuUsage(cpuStart);
  const cpuMean = (cpu.user + cpu.system) / 1000 / iterations;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  const mean = times.reduce((sum, value) => sum + value, 0) / times.length;
  return {
    case: name,
    entries: size,
    dims,
    buildMs: buildMs.toFixed(1),
    meanMs: mean.toFixed(3),
    cpuMeanMs: cpuMean.toFixed(3),
    p50Ms: at(0.5).toFixed(3),
    p95Ms: at(0.95).toFixed(3),
    maxMs: at(1).toFixed(3),
    shown: last.shown.length,
    tokens: last.tokens,
  };
}

const rows = [
  measure("all active (real math lib)", 27, 256, 2000),
  measure("top-k", 1000, 256, 1000),
  measure("top-k", 10_000, 256, 400),
  measure("top-k", 10_000, 512, 300),
  measure("top-k", 10_000, 1536, 200),
];
console.log(
  `experience selection per task (hashed embeddings, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`,
);
console.table(rows);
