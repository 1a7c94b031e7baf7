import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { diffStates } from "@tfgrpo/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RetailDb } from "../retail-db.js";
import { realRetailDb, realTau2Task, realTau2Tasks } from "../retail-fixture.test-support.js";
import { retailGoldOf, toRetailTask } from "../retail-task.js";
import { stateHash } from "../reward/canonical-json.js";
import { replayGold } from "../reward/gold-state.js";
import { type RetailMcpHttpHandle, serveRetailMcpHttp } from "./serve-retail-mcp.js";

const task = toRetailTask(realTau2Task("0"));
const gold = retailGoldOf(task);

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { type: string; text: string }[]).map((part) => part.text).join("");

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: "retail-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

/** Ends an HTTP client's MCP session (DELETE /mcp) so the server frees its database, then closes the client. */
async function end(client: Client): Promise<void> {
  await (client.transport as StreamableHTTPClientTransport).terminateSession();
  await client.close();
}

async function state(client: Client): Promise<RetailDb> {
  return JSON.parse(textOf(await client.callTool({ name: "environment_state", arguments: {} }))) as RetailDb;
}

/** Plays task 0's gold on one client; returns what its session's state became. */
async function playGold(client: Client): Promise<RetailDb> {
  await client.callTool({ name: "environment_reset", arguments: { task } });
  for (const action of gold.actions) {
    const result = await client.callTool({ name: action.name, arguments: action.arguments });
    expect(result.isError, `${action.name}: ${textOf(result)}`).toBeFalsy();
  }
  return state(client);
}

const goldHash = stateHash(replayGold(realRetailDb(), gold.actions).state);
const initialHash = stateHash(realRetailDb());

describe("the retail MCP server over real transports", () => {
  let http: RetailMcpHttpHandle;
  beforeAll(async () => {
    http = await serveRetailMcpHttp({ initial: realRetailDb(), port: 0 });
  });
  afterAll(async () => {
    await http.close();
  });

  it("lists the agent tools and the control tools with their schemas", async () => {
    const client = await connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain("exchange_delivered_order_items");
    expect(names).toContain("environment_reset");
    expect(names).toContain("environment_state");
    expect(names).toContain("environment_changes");
    expect(names).toHaveLength(19);
    const exchange = tools.find((tool) => tool.name === "exchange_delivered_order_items")!;
    expect(exchange.inputSchema.required).toEqual([
      "order_id",
      "item_ids",
      "new_item_ids",
      "payment_method_id",
    ]);
    await end(client);
  });

  it("HTTP: two sessions have their own databases; a reset restores the start", async () => {
    const a = await connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const b = await connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const afterGold = await playGold(a);
    expect(stateHash(afterGold)).toBe(goldHash);
    // b never sees a's exchange.
    await b.callTool({ name: "environment_reset", arguments: { task } });
    expect(stateHash(await state(b))).toBe(initialHash);
    const refused = await b.callTool({
      name: "cancel_pending_order",
      arguments: { order_id: "#W2378156", reason: "no longer needed" },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe("Error: Non-pending order cannot be cancelled");
    expect(stateHash(await state(a))).toBe(goldHash);
    // Each session reports its own changes since its reset: a's are the diff of its whole state, b has none.
    const changesOf = async (client: Client) =>
      JSON.parse(textOf(await client.callTool({ name: "environment_changes", arguments: {} }))) as unknown[];
    expect(await changesOf(a)).toEqual(diffStates(realRetailDb(), afterGold));
    expect((await changesOf(a)).length).toBeGreaterThan(0);
    expect(await changesOf(b)).toEqual([]);
    await a.callTool({ name: "environment_reset", arguments: { task } });
    expect(stateHash(await state(a))).toBe(initialHash);
    expect(http.sessions).toBe(2);
    await end(a);
    await end(b);
    expect(http.sessions).toBe(0);
  });

  it("HTTP: four attempts of one group at once, each writing its own change, see only their own writes", async () => {
    const clients = await Promise.all(
      [0, 1, 2, 3].map(() => connect(new StreamableHTTPClientTransport(new URL(http.url)))),
    );
    // Four pending orders; attempt i cancels order i only, all calls interleaved.
    const pending = Object.values(realRetailDb().orders)
      .filter((order) => order.status === "pending")
      .slice(0, 4)
      .map((order) => order.order_id);
    await Promise.all(
      clients.map((client) => client.callTool({ name: "environment_reset", arguments: { task } })),
    );
    const results = await Promise.all(
      clients.map((client, i) =>
        client.callTool({
          name: "cancel_pending_order",
          arguments: { order_id: pending[i]!, reason: "ordered by mistake" },
        }),
      ),
    );
    expect(results.map((result) => result.isError ?? false)).toEqual([false, false, false, false]);
    const states = await Promise.all(clients.map((client) => state(client)));
    states.forEach((db, i) => {
      pending.forEach((orderId, j) => {
        expect(db.orders[orderId]!.status, `attempt ${i} sees order ${j}`).toBe(
          i === j ? "cancelled" : "pending",
        );
      });
    });
    await Promise.all(clients.map((client) => end(client)));
  });

  it("stdio: a process per attempt, each with its own database", async () => {
    const entry = fileURLToPath(new URL("./stdio-entry.test-support.ts", import.meta.url));
    const spawn = () =>
      connect(
        new StdioClientTransport({
          command: process.execPath,
          args: ["--conditions=source", "--import", "tsx", entry],
          stderr: "pipe",
        }),
      );
    const [a, b] = await Promise.all([spawn(), spawn()]);
    expect(stateHash(await playGold(a))).toBe(goldHash);
    expect(stateHash(await state(b))).toBe(initialHash);
    await a.close();
    await b.close();
  });

  // Why the warm pool may hand one retail process to attempt after attempt (`reuse: true` in the preset's settings,
  // docs/tools.md): the server's only state is its environment's database, and `environment_reset` replaces it with
  // a fresh copy of db.json. After every task's gold actions (every write tool, on one process, one attempt after
  // another), a reset gives the state of a process that served nothing, and the next attempt's reads see no write.
  it("stdio: a reset restores the fresh state after any attempt, on one process serving them all", async () => {
    const entry = fileURLToPath(new URL("./stdio-entry.test-support.ts", import.meta.url));
    const client = await connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--conditions=source", "--import", "tsx", entry],
        stderr: "pipe",
      }),
    );
    try {
      let writes = 0;
      const touched = new Set<string>();
      for (const raw of realTau2Tasks().values()) {
        const attempt = toRetailTask(raw);
        await client.callTool({ name: "environment_reset", arguments: { task: attempt } });
        for (const action of retailGoldOf(attempt).actions) {
          const result = await client.callTool({ name: action.name, arguments: action.arguments });
          if (result.isError) continue;
          if (
            !action.name.startsWith("get_") &&
            !action.name.startsWith("find_") &&
            !action.name.startsWith("list_")
          )
            writes++;
          const order = (action.arguments as { order_id?: string }).order_id;
          if (order) touched.add(order);
        }
      }
      expect(writes).toBeGreaterThan(50);
      await client.callTool({ name: "environment_reset", arguments: { task } });
      expect(stateHash(await state(client))).toBe(initialHash);
      // And through the agent's own tools: every order an attempt wrote reads as in db.json.
      for (const orderId of touched) {
        const read = await client.callTool({ name: "get_order_details", arguments: { order_id: orderId } });
        expect(JSON.parse(textOf(read))).toEqual(realRetailDb().orders[orderId]);
      }
    } finally {
      await client.close();
    }
  });
});
