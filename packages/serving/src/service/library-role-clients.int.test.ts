// The library role's client gate over a real NATS server: client tokens name the client of each call, unknown
// tokens are refused, and each client (else each connection) has its own rate limit, so one flooding client is
// refused with `rate_limited` while another is served.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { TfgrpoError } from "@tfgrpo/protocol";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { createBusLibraryClient } from "./bus-library-client.js";
import { parseClientTokens } from "./client-tokens.js";
import { createLibraryService } from "./in-process-library-service.js";
import { createLibraryRole } from "./library-role.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const flooder = path.resolve(here, "../../test/fixtures/bus-flood.mjs");
const fromSources = [
  "--conditions=source",
  "--import",
  pathToFileURL(createRequire(path.resolve(here, "../../../../package.json")).resolve("tsx")).href,
];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** `count` calls one after another, one every `everyMs` (under the client's own limit): each call's latency. */
async function paced(call: () => Promise<unknown>, count: number, everyMs: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (performance.now() - started))));
  }
  return latencies;
}

it("on the Bus: tokens name the client, unknown ones are refused, a flooding client is rate limited alone", async () => {
  await using nats = await startNatsServer();
  const store = await createStore(":memory:");
  await store.applyOperations("math", [{ op: "add", text: "Check units.", reason: "r", status: "active" }], {
    parent: null,
    state: "committed",
  });
  const server = await createNatsBus({ servers: nats.url, name: "library" });
  const handle = await createLibraryRole(createLibraryService({ store, exposure: false }), store, {
    clientTokens: parseClientTokens("alice:alice-token-0001\nbob:bob-token-000002", "tokens"),
    rateLimit: { perSecond: 10, burst: 10 },
  }).serve(server);
  const bobBus = await createNatsBus({ servers: nats.url, name: "bob" });
  try {
    const bob = createBusLibraryClient(bobBus, { clientToken: "bob-token-000002" });
    const nobody = await createBusLibraryClient(bobBus)
      .getExperiences({ domain: "math", task: "1+1?" })
      .catch((error) => error);
    expect(TfgrpoError.hasCode(nobody, "unauthorized")).toBe(true);
    expect((nobody as Error).message).toContain("needs a client token");
    const wrong = await createBusLibraryClient(bobBus, { clientToken: "not-a-token-at-all" })
      .getExperiences({ domain: "math", task: "1+1?" })
      .catch((error) => error);
    expect(TfgrpoError.hasCode(wrong, "unauthorized")).toBe(true);

    const reply = await bob.getExperiences({ domain: "math", task: "2+2?" });
    await bob.reportOutcome({ selectionId: reply.selectionId, success: true });
    expect((await store.getSelection(reply.selectionId))?.outcome?.client).toBe("bob");

    const before = await paced(() => bob.getExperiences({ domain: "math", task: "3+3?" }), 15, 120);
    // From the sources, as the test itself runs (no build needed).
    const flood = spawn(
      process.execPath,
      [...fromSources, flooder, nats.url, "alice-token-0001", "3000", "16"],
      {
        cwd: path.dirname(flooder),
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let floodOutput = "";
    flood.stdout.on("data", (chunk: Buffer) => {
      floodOutput += chunk.toString();
    });
    const floodDone = new Promise<number | null>((resolve) => flood.once("close", resolve));
    while (!floodOutput.includes("flooding")) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const during = await paced(() => bob.getExperiences({ domain: "math", task: "4+4?" }), 15, 120);
    expect(await floodDone).toBe(0);
    const { counts, sample } = JSON.parse(floodOutput.trim().split("\n").at(-1)!) as {
      counts: { served: number; limited: number; other: number };
      sample: { message: string; details: Record<string, unknown> };
    };
    console.log(
      `bus flood: ${JSON.stringify(counts)} in 3 s; bob's median latency ${median(before).toFixed(1)} ms before, ` +
        `${median(during).toFixed(1)} ms during`,
    );
    expect(counts.other).toBe(0);
    expect(counts.limited).toBeGreaterThan(counts.served);
    // What got through is what the bucket allows (burst 10 + 10/s over 3 s, with slack).
    expect(counts.served).toBeLessThanOrEqual(10 + 10 * 5);
    expect(sample.message).toMatch(
      /^tfgrpo\.library\.experiences: rate limit exceeded for client alice: at most 10 requests per second \(burst 10\); retry after 1 s$/,
    );
    expect(sample.details).toMatchObject({ retryAfterMs: expect.any(Number) });
    // Bob was never refused: each of his paced calls above was served (one refusal would have thrown). How fast he
    // stays is a benchmark's question (bench/serving), not a loaded machine's: the latencies are only logged.
    expect((await store.listClients("math")).map((row) => row.client)).toEqual(["alice", "bob"]);
  } finally {
    await handle.close();
    await bobBus.close();
    await server.close();
    await store.close();
  }
});

it("on the Bus without tokens: each connection has its own limit", async () => {
  await using nats = await startNatsServer();
  const store = await createStore(":memory:");
  const server = await createNatsBus({ servers: nats.url, name: "library" });
  const handle = await createLibraryRole(createLibraryService({ store }), store, {
    rateLimit: { perSecond: 1, burst: 3 },
  }).serve(server);
  const first = await createNatsBus({ servers: nats.url, name: "agent-a" });
  const second = await createNatsBus({ servers: nats.url, name: "agent-b" });
  try {
    const call = (bus: typeof first) =>
      createBusLibraryClient(bus)
        .getExperiences({ domain: "math", task: "x" })
        .then(
          () => "ok",
          (error) => (TfgrpoError.hasCode(error, "rate_limited") ? "limited" : `other: ${error}`),
        );
    const results: string[] = [];
    for (let index = 0; index < 5; index++) results.push(await call(first));
    expect(results).toEqual(["ok", "ok", "ok", "limited", "limited"]);
    expect(await call(second)).toBe("ok");
    const refused = await createBusLibraryClient(first)
      .getExperiences({ domain: "math", task: "x" })
      .catch((error: TfgrpoError) => error.message);
    expect(refused).toMatch(
      /rate limit exceeded for client connection agent-a#\d+: at most 1 requests per second/,
    );
  } finally {
    await handle.close();
    await first.close();
    await second.close();
    await server.close();
    await store.close();
  }
});
