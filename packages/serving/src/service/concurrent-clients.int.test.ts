// 50 clients at once — 25 over MCP (Streamable HTTP) and 25 over NATS (a real nats-server) — reading experiences,
// reading whole versions and reporting outcomes (some twice, concurrently) while another connection commits new
// versions into the same SQLite file. Each server has its own connection to the file, as separate processes would;
// the second report of an MCP selection goes over NATS, so the two servers race for the same outcome.
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import {
  type Bus,
  type GetExperiencesReply,
  libraryExperiences,
  libraryGet,
  libraryOutcome,
  type Operation,
  type ReportOutcomeReply,
  TfgrpoError,
} from "@tfgrpo/protocol";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { serveMcpHttp } from "../mcp/serve-mcp.js";
import { createLibraryService } from "./in-process-library-service.js";
import { createLibraryRole } from "./library-role.js";

const perVersion = 3;
const initial = 10;
/** Version v holds exactly this many entries: a reader seeing fewer saw a half-written version. */
const entriesOf = (version: number) => initial + perVersion * (version - 1);
const adds = (version: number, count: number): Operation[] =>
  Array.from({ length: count }, (_, i) => ({
    op: "add" as const,
    text: `Lesson ${i} of version ${version}: check step ${i} twice.`,
    reason: "concurrency test",
    status: i === 0 ? ("candidate" as const) : ("active" as const),
  }));

it("50 MCP and NATS clients read and report while versions commit: every outcome once, no partial version", async () => {
  await using nats = await startNatsServer();
  await using temporary = await temporaryDirectory("tfgrpo-concurrent-clients-");
  const db = path.join(temporary.path, "workspace.db");
  const writer = await createStore(db);
  await writer.applyOperations("math", adds(1, initial), { parent: null, state: "committed" });

  // Two servers, each with its own connection to the file: the NATS library role and the MCP server.
  const natsStore = await createStore(db);
  const mcpStore = await createStore(db);
  const serverBus = await createNatsBus({ servers: nats.url, name: "library-role" });
  const crossBus = await createNatsBus({ servers: nats.url, name: "cross-reporter" });
  const role = await createLibraryRole(
    createLibraryService({ store: natsStore, statsMaxAgeMs: 0 }),
    natsStore,
  ).serve(serverBus, { concurrency: 32 });
  const http = await serveMcpHttp({
    service: createLibraryService({ store: mcpStore, statsMaxAgeMs: 0 }),
    domain: "math",
    port: 0,
  });

  const rounds = 4;
  const replies: ReportOutcomeReply[] = [];
  let conflicts = 0;
  let duplicatesTried = 0;
  const versionsSeen = new Set<number>();
  const checkWhole = (version: number, entries: number) => {
    versionsSeen.add(version);
    expect(entries, `version ${version} read with ${entries} entries`).toBe(entriesOf(version));
  };

  /** One report, or two of the same selection at once (exactly one may win). */
  const report = async (
    send: () => Promise<ReportOutcomeReply | "conflict">,
    twice: boolean,
    other: () => Promise<ReportOutcomeReply | "conflict"> = send,
  ) => {
    const results = await Promise.all(twice ? [send(), other()] : [send()]);
    if (twice) duplicatesTried++;
    const ok = results.filter((r): r is ReportOutcomeReply => r !== "conflict");
    expect(ok).toHaveLength(1);
    conflicts += results.length - ok.length;
    replies.push(ok[0]!);
  };

  const natsClient = async (n: number) => {
    const bus: Bus = await createNatsBus({ servers: nats.url, name: `agent-${n}` });
    try {
      for (let round = 0; round < rounds; round++) {
        const reply = await bus.request(libraryExperiences, {
          domain: "math",
          task: `nats task ${n}/${round}`,
        });
        const whole = (await bus.request(libraryGet, { domain: "math", version: reply.version! }))!;
        checkWhole(reply.version!, whole.experiences.length);
        expect(
          reply.entries.every((e) => whole.experiences.some((w) => w.id === e.id && w.text === e.text)),
        ).toBe(true);
        await report(
          () =>
            bus
              .request(libraryOutcome, { selectionId: reply.selectionId, success: (n + round) % 2 === 0 })
              .catch((error: unknown) => {
                // Either of two simultaneous reports may be the one refused.
                if (TfgrpoError.isInstance(error) && error.code === "conflict") return "conflict" as const;
                throw error;
              }),
          round % 2 === 1,
        );
      }
    } finally {
      await bus.close();
    }
  };

  const mcpClient = async (n: number) => {
    const client = new Client({ name: `mcp-agent-${n}`, version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    try {
      for (let round = 0; round < rounds; round++) {
        const got = await client.callTool({
          name: "get_experiences",
          arguments: { task: `mcp task ${n}/${round}` },
        });
        expect(got.isError ?? false).toBe(false);
        const reply = got.structuredContent as GetExperiencesReply;
        const resource = await client.readResource({ uri: `tfgrpo://library/math/v/${reply.version}` });
        const whole = JSON.parse((resource.contents[0] as { text: string }).text) as {
          version: number;
          entries: { id: string }[];
        };
        checkWhole(whole.version, whole.entries.length);
        const head = JSON.parse(
          ((await client.readResource({ uri: "tfgrpo://library/math/head" })).contents[0] as { text: string })
            .text,
        ) as { version: number; entries: unknown[] };
        checkWhole(head.version, head.entries.length);
        await report(
          async () => {
            const result = await client.callTool({
              name: "report_outcome",
              arguments: { selectionId: reply.selectionId, reward: ((n + round) % 4) / 4 },
            });
            if (result.isError) {
              const text = (result.content as { text: string }[])[0]!.text;
              if (text.startsWith("conflict: ")) return "conflict" as const;
              throw new Error(text);
            }
            return result.structuredContent as ReportOutcomeReply;
          },
          round % 2 === 0,
          // The duplicate of an MCP report goes over NATS: two servers, two connections to the file, one outcome.
          () =>
            crossBus
              .request(libraryOutcome, { selectionId: reply.selectionId, reward: ((n + round) % 4) / 4 })
              .catch((error: unknown) => {
                if (TfgrpoError.isInstance(error) && error.code === "conflict") return "conflict" as const;
                throw error;
              }),
        );
      }
    } finally {
      await client.close();
    }
  };

  // The writer commits a new version every few milliseconds while the clients run.
  let running = true;
  let committed = 1;
  const writing = (async () => {
    while (running) {
      const head = (await writer.getHeadVersion("math"))!;
      await writer.applyOperations("math", adds(head + 1, perVersion), { parent: head, state: "committed" });
      committed++;
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
  })();
  try {
    await Promise.all([
      ...Array.from({ length: 25 }, (_, n) => natsClient(n)),
      ...Array.from({ length: 25 }, (_, n) => mcpClient(n)),
    ]);
  } finally {
    running = false;
    await writing;
  }

  // Versions really changed under the clients, and they saw several of them.
  expect(committed).toBeGreaterThanOrEqual(3);
  expect(versionsSeen.size).toBeGreaterThanOrEqual(2);
  // Every outcome stored once: 200 reports accepted, every duplicate refused, the credit added once per report.
  expect(replies).toHaveLength(50 * rounds);
  expect(new Set(replies.map((r) => r.selectionId)).size).toBe(50 * rounds);
  expect(conflicts).toBe(duplicatesTried);
  const counts = await writer.countOutcomes("math");
  expect(counts).toMatchObject({ served: 50 * rounds, reported: 50 * rounds });
  expect(counts.successes).toBe(replies.filter((r) => r.success).length);
  const head = (await writer.getHead("math"))!;
  const shown = head.experiences.reduce((sum, e) => sum + e.stats.shown, 0);
  expect(shown).toBe(replies.reduce((sum, r) => sum + r.creditedIds.length, 0));
  const success = head.experiences.reduce((sum, e) => sum + e.stats.success, 0);
  expect(success).toBeCloseTo(
    replies.reduce((sum, r) => sum + r.reward * r.creditedIds.length, 0),
    9,
  );

  await http.close();
  await role.close();
  await serverBus.close();
  await crossBus.close();
  for (const store of [natsStore, mcpStore, writer]) await store.close();
});
