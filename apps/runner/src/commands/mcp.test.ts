import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { expect, it } from "vitest";
import { mcp } from "./mcp.js";

it("tfgrpo mcp --http on a non-loopback host needs TFGRPO_MCP_TOKEN and opens nothing without it", async () => {
  await using temporary = await temporaryDirectory("tfgrpo-mcp-host-");
  const db = path.join(temporary.path, "never.db");
  await expect(mcp({ domain: "math", http: 0, host: "0.0.0.0", db }, { env: {} })).rejects.toThrow(
    "tfgrpo mcp --host 0.0.0.0: serving beyond loopback needs a token (set TFGRPO_MCP_TOKEN; clients send Authorization: Bearer <token>)",
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
