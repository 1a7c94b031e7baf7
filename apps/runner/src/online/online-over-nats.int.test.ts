// `tfgrpo online --nats URL`: the library served on a real nats-server, learning from the outcomes agents on the Bus
// report. This process plays the agents (plain Bus requests, with summaries of what they did); the learner's
// critic, curator and embedder are the SIMULATED ones (--sim).
import path from "node:path";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { libraryExperiences, libraryOutcome } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { countingReport } from "@tfgrpo/sim/testing";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { online } from "../commands/online.js";

it("online --nats learns from the outcomes agents report on the Bus and routes a canary share to the new version", async () => {
  await using nats = await startNatsServer();
  await using temporary = await temporaryDirectory("tfgrpo-online-nats-");
  const db = path.join(temporary.path, "w.db");
  const stdout: string[] = [];
  const stderr: string[] = [];
  const session = online(
    {
      domain: "math",
      nats: nats.url,
      db,
      sim: true,
      seed: 4,
      concurrency: 1,
      maxOutcomes: 40,
      reflectEvery: 12,
      canaryShare: 0.5,
      runId: "online-nats",
      json: true,
    },
    { stdout: (text) => stdout.push(text), stderr: (text) => stderr.push(text) },
  );
  const agent = await createNatsBus({ servers: nats.url, name: "online-nats-agent" });
  const versions = new Set<number | null>();
  try {
    // Wait until the library role answers (the session starts the sim world and the store first).
    let ready = false;
    for (let attempt = 0; attempt < 200 && !ready; attempt++) {
      ready = await agent
        .request(libraryExperiences, { domain: "math", task: "warm-up" }, { timeoutMs: 500 })
        .then(() => true)
        .catch(() => false);
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ready).toBe(true);
    for (let index = 0; index < 40; index++) {
      const { task } = countingReport(index, true);
      const reply = await agent.request(libraryExperiences, { domain: "math", task });
      versions.add(reply.version);
      // Served by a version that teaches the inclusive bound, the agent gets it right more often.
      const inclusive = reply.version === null ? index % 10 < 3 : index % 5 !== 0;
      const outcome = countingReport(index, inclusive);
      await agent.request(libraryOutcome, {
        selectionId: reply.selectionId,
        success: inclusive,
        summary: outcome.summary,
      });
      // The learner reads outcomes from the store as they land: after the first `reflectEvery` outcomes the agents
      // wait for its reflection (agents do not all answer within a millisecond, and the canary is what is tested).
      if (index === 11) {
        for (let waited = 0; waited < 60_000; waited += 50) {
          if (/online: reflection after/.test(stderr.join(""))) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    }
    await session;
  } finally {
    await agent.close();
  }
  const result = JSON.parse(stdout.join(""));
  expect(result).toMatchObject({ runId: "online-nats", served: 40 });
  expect(result.reflections.length).toBeGreaterThan(0);
  expect(stderr.join("")).toContain("served on");
  // A proposed version served part of the traffic through the role's router.
  expect([...versions].some((version) => version !== null)).toBe(true);
  const store = await createStore(db);
  try {
    const run = await store.getRun("online-nats");
    expect(run).toMatchObject({ kind: "online", status: "finished" });
    expect((await store.listVersions("math")).length).toBeGreaterThan(0);
  } finally {
    await store.close();
  }
}, 120_000);
