import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createSimServer, type SimServer, type SimServerOptions } from "@tfgrpo/sim";

export interface SimWorld extends AsyncDisposable {
  server: SimServer;
  /** examples/models.sim.yaml, whose base URL reads SIM_PORT (set by this function). */
  config: string;
  directory: string;
  close(): Promise<void>;
}

const simConfig = fileURLToPath(new URL("../../../../examples/models.sim.yaml", import.meta.url));

/**
 * Starts the SIMULATED world in this process (for `--sim`, the demo and tests): the sim model server on a free
 * loopback port, and SIM_PORT / TFGRPO_SIM_* variables the sim models config and the actor's web tools read.
 */
export async function startSimWorld(options: SimServerOptions): Promise<SimWorld> {
  const server = await createSimServer(options);
  const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-sim-"));
  process.env.SIM_PORT = String(server.port);
  const close = async () => {
    await server.close();
    await rm(directory, { recursive: true, force: true });
  };
  return { server, config: simConfig, directory, close, [Symbol.asyncDispose]: close };
}
