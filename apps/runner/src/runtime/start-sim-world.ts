import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SimServer, SimServerOptions } from "@tfgrpo/sim";
import { packageAsset } from "./package-asset.js";

export interface SimWorld extends AsyncDisposable {
  server: SimServer;
  /** examples/models.sim.yaml, whose base URL reads SIM_PORT (set by this function). */
  config: string;
  directory: string;
  close(): Promise<void>;
}

/** The models config of the sim world: every role on the sim server at SIM_PORT. */
export const simModelsConfig = packageAsset("examples/models.sim.yaml");

export type SimModule = typeof import("@tfgrpo/sim");

/** The sim package, loaded on demand: product code paths never load the simulated world unless asked to. */
export function loadSim(): Promise<SimModule> {
  return import("@tfgrpo/sim");
}

/**
 * Starts the SIMULATED world in this process (for `--sim`, the demo and tests): the sim model server on a free
 * loopback port, and SIM_PORT / TFGRPO_SIM_* variables the sim models config and the actor's web tools read.
 */
export async function startSimWorld(options: SimServerOptions): Promise<SimWorld> {
  const { createSimServer } = await loadSim();
  const server = await createSimServer(options);
  const directory = await mkdtemp(path.join(os.tmpdir(), "tfgrpo-sim-"));
  process.env.SIM_PORT = String(server.port);
  const close = async () => {
    await server.close();
    await rm(directory, { recursive: true, force: true });
  };
  return { server, config: simModelsConfig, directory, close, [Symbol.asyncDispose]: close };
}
