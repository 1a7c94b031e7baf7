// `tfgrpo serve --role library` with client tokens and a rate limit, as its own process on a real NATS server: the
// options reach the role, a token's client is stored with its outcome, an unknown token and a burst past the limit
// are refused with their codes.
import path from "node:path";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import { TfgrpoError } from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createBusLibraryClient } from "@tfgrpo/serving";
import { createSimServer } from "@tfgrpo/sim";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { startRoleWorker } from "../testing/start-role-worker.js";

it("serve --role library --client-tokens --rate-limit: clients named, unknown tokens and floods refused", async () => {
  await using nats = await startNatsServer();
  // The models config's embedder gives the role its similarity: the SIMULATED one.
  const sim = await createSimServer({ seed: 1 });
  await using temporary = await temporaryDirectory("tfgrpo-serve-clients-");
  const db = path.join(temporary.path, "team.db");
  await (await createStore(db)).close();
  await using worker = await startRoleWorker(
    "library",
    [
      "--nats",
      nats.url,
      "--db",
      db,
      "--config",
      "examples/models.sim.yaml",
      "--rate-limit",
      "1",
      "--rate-burst",
      "4",
    ],
    {
      env: {
        SIM_PORT: String(sim.port),
        TFGRPO_NATS_URL: "",
        TFGRPO_CLIENT_TOKENS: "alice:alice-token-0001,bob:bob-token-000002",
      },
    },
  );
  expect(worker.output.stderr).toContain("2 client tokens, rate limit 1/s burst 4 per client");
  const bus = await createNatsBus({ servers: nats.url, name: "agents" });
  let refusals: string[] = [];
  try {
    const alice = createBusLibraryClient(bus, { clientToken: "alice-token-0001" });
    const got = await alice.getExperiences({ domain: "math", task: "2+2?" });
    await alice.reportOutcome({ selectionId: got.selectionId, success: true });
    refusals = [];
    for (let index = 0; index < 8; index++) {
      await alice.getExperiences({ domain: "math", task: "x" }).catch((error: TfgrpoError) => {
        refusals.push(`${error.code}: ${error.message}`);
      });
    }
    // Burst 4 (2 spent on the first task) and 1 more a second: most of the 8 quick calls are refused.
    expect(refusals.length).toBeGreaterThanOrEqual(8 - 2 - 3);
    expect(new Set(refusals)).toEqual(
      new Set([
        "rate_limited: tfgrpo.library.experiences: rate limit exceeded for client alice: at most 1 requests per second (burst 4); retry after 1 s",
      ]),
    );
    // Bob's bucket is his own.
    await createBusLibraryClient(bus, { clientToken: "bob-token-000002" }).getExperiences({
      domain: "math",
      task: "y",
    });
    const stranger = await createBusLibraryClient(bus, { clientToken: "not-a-token-0000" })
      .getExperiences({ domain: "math", task: "z" })
      .catch((error) => error);
    expect(TfgrpoError.hasCode(stranger, "unauthorized")).toBe(true);
  } finally {
    await bus.close();
    await worker.stop();
    await sim.close();
  }
  const store = await createStore(db);
  try {
    expect(
      (await store.listClients("math")).map((row) => [row.client, row.selections, row.outcomes]),
    ).toEqual([
      ["alice", 1 + 8 - refusals.length, 1],
      ["bob", 1, 0],
    ]);
  } finally {
    await store.close();
  }
}, 120_000);
