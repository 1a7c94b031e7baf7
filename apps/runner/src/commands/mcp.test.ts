import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { expect, it } from "vitest";
import { mcp } from "./mcp.js";

it("tfgrpo mcp --http on a non-loopback host needs TFGRPO_MCP_TOKEN and opens nothing without it", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-mcp-host-");
  const db = path.join(temporary.path, "never.db");
  await expect(mcp({ domain: "math", http: 0, host: "0.0.0.0", db }, { env: {} })).rejects.toThrow(
    "tfgrpo mcp --host 0.0.0.0: serving beyond loopback needs a token (set TFGRPO_MCP_TOKEN, or give --client-tokens; clients send Authorization: Bearer <token>)",
  );
  const { existsSync } = await import("node:fs");
  expect(existsSync(db)).toBe(false);
});

it("tfgrpo mcp refuses a database that does not exist instead of creating an empty one", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-mcp-db-");
  const db = path.join(temporary.path, "typo.db");
  await expect(mcp({ domain: "math", db }, { env: {} })).rejects.toThrow(`no tfgrpo database at ${db}`);
  const { existsSync } = await import("node:fs");
  expect(existsSync(db)).toBe(false);
});

it("tfgrpo mcp --client-tokens: a bad tokens file is one error naming its line, before anything opens", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-mcp-tokens-");
  const db = path.join(temporary.path, "never.db");
  const tokens = path.join(temporary.path, "clients.txt");
  const { existsSync, writeFileSync } = await import("node:fs");
  writeFileSync(tokens, "alice:alice-token-0001\nbob:short\n");
  await expect(
    mcp({ domain: "math", http: 0, host: "0.0.0.0", db, clientTokens: tokens }, { env: {} }),
  ).rejects.toThrow(`${tokens}:2: the token of client bob is shorter than 12 characters`);
  await expect(
    mcp({ domain: "math", http: 0, db, clientTokens: path.join(temporary.path, "missing.txt") }, { env: {} }),
  ).rejects.toThrow(/--client-tokens .*missing\.txt: cannot read client tokens: no such file/);
  await expect(
    mcp({ domain: "math", http: 0, db }, { env: { TFGRPO_CLIENT_TOKENS: "alice" } }),
  ).rejects.toThrow('TFGRPO_CLIENT_TOKENS entry 1: expected "name:token"');
  expect(existsSync(db)).toBe(false);
});
