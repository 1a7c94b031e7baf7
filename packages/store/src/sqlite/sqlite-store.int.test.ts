import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Operation } from "@tfgrpo/protocol";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStore } from "../create-store.js";
import { parseStoreUrl } from "../parse-store-url.js";
import { expectTfgrpoError } from "../testing/fixtures.js";
import { migrations } from "./migrations.js";
import { SqliteStore } from "./sqlite-store.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(here, "../..");
const childScript = path.join(here, "../../test/fixtures/concurrent-store.child.ts");

type Message = Record<string, unknown>;

/** A child process on the same database file; messages are its stdout JSON lines. */
function spawnChild(config: Record<string, unknown>) {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", childScript, JSON.stringify(config)],
    { cwd: packageRoot, stdio: ["pipe", "pipe", "pipe"] },
  );
  const messages: Message[] = [];
  const waiters: Array<() => void> = [];
  let buffer = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      messages.push(JSON.parse(buffer.slice(0, newline)) as Message);
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf("\n");
      for (const wake of waiters.splice(0)) wake();
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const message = async (index: number): Promise<Message> => {
    while (messages.length <= index) {
      const code = await Promise.race([
        exited,
        new Promise<"more">((resolve) => waiters.push(() => resolve("more"))),
      ]);
      if (code !== "more" && messages.length <= index) {
        throw new Error(`child exited (${code}) before message ${index}: ${stderr}`);
      }
    }
    return messages[index]!;
  };
  return {
    message,
    send: (line: string) => child.stdin!.write(`${line}\n`),
    exited,
    kill: () => child.kill("SIGKILL"),
  };
}

describe("SqliteStore on a file", () => {
  let temporary: TemporaryDirectory;
  let dir: string;
  let file: string;
  beforeEach(async () => {
    temporary = await temporaryDirectory("tfgrpo-store-int-");
    dir = temporary.path;
    file = path.join(dir, "nested", "tfgrpo.db");
  });
  afterEach(() => temporary[Symbol.asyncDispose]());

  it("creates the file in WAL mode with a versioned schema, and keeps data across reopening", async () => {
    const store = new SqliteStore({ path: file });
    await store.setup();
    await store.setup();
    expect(store.inspect()).toEqual({
      schemaVersion: migrations.at(-1)!.version,
      integrity: "ok",
      journalMode: "wal",
    });
    await store.applyOperations("math", [{ op: "add", text: "kept", reason: "r" }], {
      parent: null,
      state: "committed",
    });
    await store.close();
    const reopened = await createStore(`sqlite://${file}`, { mustExist: true });
    expect((await reopened.getHead("math"))!.experiences.map((e) => e.text)).toEqual(["kept"]);
    await reopened.close();
    const raw = new Database(file, { readonly: true });
    // Every migration, recorded once with what it did.
    expect(raw.prepare("SELECT version, description FROM schema_version").all()).toEqual(
      migrations.map(({ version, description }) => ({ version, description })),
    );
    expect(migrations.map(({ description }) => description)).toEqual([
      expect.stringContaining("libraries"),
      expect.stringContaining("outcomes"),
      expect.stringContaining("contrasts"),
      expect.stringContaining("online contrasts"),
      ...migrations.slice(4).map(() => expect.any(String)),
    ]);
    raw.close();
  });

  it("refuses a database written by a newer schema, and a missing file when it must exist", async () => {
    const store = new SqliteStore({ path: file });
    await store.setup();
    await store.close();
    const raw = new Database(file);
    raw
      .prepare("INSERT INTO schema_version (version, description, applied_at) VALUES (99, 'future', 'x')")
      .run();
    raw.close();
    const error = await expectTfgrpoError(createStore(file), "invalid_config");
    expect(error.message).toMatch(/schema version 99 is newer/);
    const missing = await expectTfgrpoError(
      createStore(path.join(dir, "absent.db"), { mustExist: true }),
      "not_found",
    );
    expect(missing.message).toContain("absent.db");
  });

  it("two processes applying on the same head at once: one commits, the other fails cleanly with conflict", async () => {
    const seed = new SqliteStore({ path: file });
    await seed.setup();
    await seed.applyOperations("math", [{ op: "add", text: "seed", reason: "r" }], {
      parent: null,
      state: "committed",
    });
    await seed.close();
    const children = ["a", "b"].map((name) =>
      spawnChild({ mode: "apply-once", db: file, domain: "math", name }),
    );
    for (const child of children) expect(await child.message(0)).toEqual({ ready: true, parent: 1 });
    for (const child of children) child.send("go");
    const results = await Promise.all(children.map((child) => child.message(1)));
    await Promise.all(children.map((child) => child.exited));
    const ok = results.filter((r) => r.ok === true);
    const failed = results.filter((r) => r.ok === false);
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({ version: 2, createdIds: ["G1"] });
    expect(failed).toEqual([
      { ok: false, code: "conflict", message: expect.stringContaining("head is now v2") },
    ]);

    const store = new SqliteStore({ path: file });
    expect(store.inspect().integrity).toBe("ok");
    expect((await store.listVersions("math")).map((v) => [v.version, v.parent, v.state])).toEqual([
      [1, null, "committed"],
      [2, 1, "committed"],
    ]);
    expect((await store.getHead("math"))!.experiences).toHaveLength(2);
    await store.close();
  });

  it("two processes proposing on the same parent at once both succeed as separate versions with distinct ids", async () => {
    const children = ["a", "b"].map((name) =>
      spawnChild({ mode: "apply-once", db: file, domain: "web", name, state: "proposed" }),
    );
    for (const child of children) expect(await child.message(0)).toEqual({ ready: true, parent: null });
    for (const child of children) child.send("go");
    const results = await Promise.all(children.map((child) => child.message(1)));
    expect(results.every((r) => r.ok === true)).toBe(true);
    expect(results.map((r) => r.version).sort()).toEqual([1, 2]);
    expect(results.flatMap((r) => r.createdIds as string[]).sort()).toEqual(["G0", "G1"]);
  });

  it("two processes committing in optimistic loops do not corrupt the file, skip or reuse a version or an id", async () => {
    const count = 25;
    const children = ["a", "b"].map((name) =>
      spawnChild({ mode: "apply-loop", db: file, domain: "math", name, count }),
    );
    for (const child of children) expect(await child.message(0)).toEqual({ ready: true });
    for (const child of children) child.send("go");
    const results = (await Promise.all(children.map((child) => child.message(1)))) as Array<{
      applied: Array<{ version: number; parent: number | null; createdIds: string[] }>;
      conflicts: number;
      failures: string[];
    }>;
    for (const result of results) {
      expect(result.failures).toEqual([]);
      expect(result.applied).toHaveLength(count);
    }
    const applied = results.flatMap((r) => r.applied).sort((a, b) => a.version - b.version);
    // Every commit is based on the one before: a linear history 1..2*count, no version twice.
    expect(applied.map((a) => a.version)).toEqual(Array.from({ length: 2 * count }, (_, i) => i + 1));
    expect(applied.map((a) => a.parent)).toEqual([
      null,
      ...Array.from({ length: 2 * count - 1 }, (_, i) => i + 1),
    ]);
    const ids = applied.flatMap((a) => a.createdIds);
    expect(ids).toEqual(Array.from({ length: 4 * count }, (_, i) => `G${i}`));

    const store = new SqliteStore({ path: file });
    expect(store.inspect().integrity).toBe("ok");
    const head = (await store.getHead("math"))!;
    expect(head.version).toBe(2 * count);
    expect(head.experiences.map((e) => e.id)).toEqual(ids);
    expect(new Set(head.experiences.map((e) => e.text)).size).toBe(4 * count);
    await store.close();
  });

  it("a reader in another process sees either the old or the new head, never a mix", async () => {
    const entries = 200;
    const writer = new SqliteStore({ path: file });
    await writer.setup();
    await writer.applyOperations(
      "math",
      Array.from({ length: entries }, () => ({ op: "add", text: "rev 1", reason: "r" }) as Operation),
      { parent: null, state: "committed" },
    );
    const reader = spawnChild({ mode: "read-loop", db: file, domain: "math", name: "reader" });
    expect(await reader.message(0)).toEqual({ ready: true });
    reader.send("go");
    const last = 30;
    for (let version = 2; version <= last; version++) {
      const ops: Operation[] = Array.from({ length: entries }, (_, i) => ({
        op: "modify",
        id: `G${i}`,
        text: `rev ${version}`,
        reason: "r",
      }));
      await writer.applyOperations("math", ops, { parent: version - 1, state: "committed" });
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    reader.send("stop");
    const result = (await reader.message(1)) as { reads: number; versions: number[]; violations: string[] };
    expect(result.violations).toEqual([]);
    expect(result.reads).toBeGreaterThan(0);
    expect(result.versions.every((v) => v >= 1 && v <= last)).toBe(true);
    expect(writer.inspect().integrity).toBe("ok");
    await writer.close();
  });
});

describe("parseStoreUrl", () => {
  it.each([
    ["sqlite:///var/lib/tfgrpo/x.db", "/var/lib/tfgrpo/x.db"],
    ["sqlite://relative/x.db", "relative/x.db"],
    ["sqlite:relative.db", "relative.db"],
    ["file:///tmp/a%20b.db", "/tmp/a b.db"],
    [".tfgrpo/tfgrpo.db", ".tfgrpo/tfgrpo.db"],
    ["/abs/path.db", "/abs/path.db"],
    [":memory:", ":memory:"],
    ["sqlite::memory:", ":memory:"],
  ])("%s -> %s", (url, expected) => {
    expect(parseStoreUrl(url)).toEqual({ backend: "sqlite", path: expected });
  });

  it("refuses other schemes and empty locations by name", () => {
    expect(() => parseStoreUrl("mysql://db/tfgrpo")).toThrow(
      /unsupported store URL mysql:\/\/db\/tfgrpo: scheme "mysql"/,
    );
    expect(() => parseStoreUrl("  ")).toThrow(/empty/);
    expect(() => parseStoreUrl("sqlite://")).toThrow(/names no file/);
  });
});
