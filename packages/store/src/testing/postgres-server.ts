import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chown, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export interface PostgresServerHandle extends AsyncDisposable {
  host: string;
  port: number;
  /** The superuser the server was initialised with (password authentication over TCP). */
  user: string;
  password: string;
  /** `postgres://user:password@127.0.0.1:port/<database>` (default database "postgres"). */
  url(database?: string): string;
  /** Creates a fresh, empty database and returns its URL: one per test keeps tests apart. */
  createDatabase(name?: string): Promise<string>;
  process: ChildProcess;
  /** Kills the server (SIGKILL), e.g. to test lost connections; `stop` still cleans up. */
  kill(): void;
  stop(): Promise<void>;
}

/** nobody:nogroup: PostgreSQL refuses to run as root, so as root the server runs as this unprivileged user. */
const unprivileged = { uid: 65534, gid: 65534 };

/** Debian's binaries live in /usr/lib/postgresql/<major>/bin (not on PATH); PG_BIN_DIR overrides. */
function findBinDir(): string {
  const candidates: string[] = [];
  if (process.env.PG_BIN_DIR) candidates.push(process.env.PG_BIN_DIR);
  const probe = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  if (probe.status === 0) candidates.push(probe.stdout.trim());
  candidates.push(...debianBinDirs());
  for (const dir of candidates) {
    if (spawnSync(path.join(dir, "postgres"), ["--version"], { encoding: "utf8" }).status === 0) return dir;
  }
  throw new Error(
    "PostgreSQL not found: install Debian's postgresql package (scripts/bootstrap.sh does) or set PG_BIN_DIR",
  );
}

function debianBinDirs(): string[] {
  const result = spawnSync("ls", ["/usr/lib/postgresql"], { encoding: "utf8" });
  if (result.status !== 0) return [];
  return result.stdout
    .split("\n")
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => `/usr/lib/postgresql/${v}/bin`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function run(binary: string, args: string[], cwd: string, asUser: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      ...(asUser ? unprivileged : {}),
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.basename(binary)} exited with ${code}: ${output.slice(-2000)}`)),
    );
  });
}

async function chownTree(dir: string): Promise<void> {
  await chown(dir, unprivileged.uid, unprivileged.gid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(full);
    else await chown(full, unprivileged.uid, unprivileged.gid);
  }
}

async function waitUntilReady(
  connect: () => Promise<void>,
  child: ChildProcess,
  log: () => string,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`postgres exited early with code ${child.exitCode}: ${log()}`);
    try {
      await connect();
      return;
    } catch (error) {
      last = error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`postgres did not accept connections within ${timeoutMs} ms: ${String(last)}\n${log()}`);
}

let databaseCounter = 0;

/**
 * Starts a real PostgreSQL (Debian's binaries) in a temporary directory: `initdb` and `postgres` on a free loopback
 * port, password authentication, settings for tests (fsync off: the data is thrown away). As root both run as
 * nobody:nogroup with the directory chowned to them. Use with `await using pgServer = await startPostgresServer()`,
 * one server per test file and `createDatabase()` per test.
 */
export async function startPostgresServer(options: { port?: number } = {}): Promise<PostgresServerHandle> {
  const binDir = findBinDir();
  const asUser = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-pg-"));
  const data = path.join(dir, "data");
  const user = "tfgrpo";
  const password = randomBytes(12).toString("hex");
  const passwordFile = path.join(dir, "password");
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (asUser) await chownTree(dir);
  await run(
    path.join(binDir, "initdb"),
    [
      "-D",
      data,
      "-U",
      user,
      `--pwfile=${passwordFile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--locale=C",
      "--no-sync",
    ],
    dir,
    asUser,
  );
  const port = options.port ?? (await freePort());
  const child = spawn(
    path.join(binDir, "postgres"),
    [
      "-D",
      data,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `port=${port}`,
      "-c",
      "unix_socket_directories=",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=200",
      "-c",
      "shared_buffers=32MB",
    ],
    { cwd: dir, stdio: ["ignore", "ignore", "pipe"], ...(asUser ? unprivileged : {}) },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const host = "127.0.0.1";
  const url = (database = "postgres") =>
    `postgres://${user}:${password}@${host}:${port}/${encodeURIComponent(database)}`;
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  try {
    await waitUntilReady(
      () => admin(async () => {}),
      child,
      () => stderr,
      20_000,
    );
  } catch (error) {
    child.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // SIGINT is PostgreSQL's fast shutdown (rolls back open transactions, disconnects clients).
      child.kill("SIGINT");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    await rm(dir, { recursive: true, force: true });
  };
  return {
    host,
    port,
    user,
    password,
    url,
    createDatabase: async (name) => {
      const database = name ?? `test_${process.pid}_${++databaseCounter}`;
      await admin((client) => client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`));
      return url(database);
    },
    process: child,
    kill: () => child.kill("SIGKILL"),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
