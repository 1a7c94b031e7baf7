import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface NatsServerHandle extends AsyncDisposable {
  url: string;
  port: number;
  process: ChildProcess;
  /** Kill the server (SIGKILL) without cleaning its store, e.g. to test reconnects. */
  kill(): void;
  stop(): Promise<void>;
}

function findBinary(): string {
  const candidates = [
    process.env.NATS_SERVER_BIN,
    "nats-server",
    "/usr/bin/nats-server",
    "/usr/sbin/nats-server",
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const probe = spawnSync(candidate, ["--version"], { encoding: "utf8" });
    if (probe.status === 0) return candidate;
  }
  throw new Error(
    "nats-server not found: install Debian's nats-server package (scripts/bootstrap.sh does) or set NATS_SERVER_BIN",
  );
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

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nats-server exited early with code ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nats-server did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
}

/**
 * Starts a real nats-server with JetStream on loopback, a free port and a temporary store directory.
 * Use with `await using server = await startNatsServer()`.
 */
export async function startNatsServer(
  options: {
    port?: number;
    storeDir?: string;
    /**
     * The server's max_payload. Default 8 MB (the server's own default is 1 MB): with the Bus's gzip compression
     * that carries trajectories far larger than real runs produce. Production servers should set the same.
     */
    maxPayload?: number;
  } = {},
): Promise<NatsServerHandle> {
  const binary = findBinary();
  const dir = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-nats-"));
  const storeDir = options.storeDir ?? path.join(dir, "jetstream");
  const port = options.port ?? (await freePort());
  const config = path.join(dir, "nats.conf");
  await writeFile(
    config,
    [
      `listen: 127.0.0.1:${port}`,
      `max_payload: ${options.maxPayload ?? 8 * 1024 * 1024}`,
      `jetstream { store_dir: "${storeDir}", max_memory_store: 268435456, max_file_store: 1073741824 }`,
      "",
    ].join("\n"),
  );
  const child = spawn(binary, ["-c", config], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  try {
    await waitForPort(port, child, 10_000);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    // A caller's storeDir is theirs to keep (to restart on it); the config directory is always ours.
    await rm(dir, { recursive: true, force: true });
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    process: child,
    kill: () => child.kill("SIGKILL"),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
