import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { TfgrpoError } from "@tfgrpo/protocol";
import { isLoopbackHost } from "./security.js";
import { type CreateStudioAppOptions, createStudioApp, type StudioApp } from "./studio-app.js";

export interface StartStudioOptions extends CreateStudioAppOptions {
  /** Default 127.0.0.1. Any other address requires `token`. */
  host?: string;
  /** Default 4477; 0 picks a free port. */
  port?: number;
}

export interface RunningStudio extends AsyncDisposable {
  readonly url: string;
  readonly port: number;
  readonly studio: StudioApp;
  close(): Promise<void>;
}

export const defaultStudioPort = 4477;

/**
 * Serves the studio over HTTP. Loopback by default; beyond loopback it refuses to start without a token, so a library
 * is never editable by anyone on the network by accident.
 */
export async function startStudio(options: StartStudioOptions): Promise<RunningStudio> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? defaultStudioPort;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new TfgrpoError("invalid_input", `--port: ${port} is not a port number (0-65535)`, {
      details: { field: "port" },
    });
  if (!isLoopbackHost(host) && !options.token) {
    throw new TfgrpoError(
      "invalid_config",
      `refusing to serve the studio on ${host} without a token: set TFGRPO_STUDIO_TOKEN (or bind to 127.0.0.1)`,
      { details: { field: "host", host } },
    );
  }
  const studio = createStudioApp(options);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const created = serve({ fetch: studio.app.fetch, hostname: host, port }, () => resolve(created));
    created.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new TfgrpoError(
          "invalid_config",
          `cannot listen on ${host}:${port}: ${error.code ?? error.message}`,
          {
            cause: error,
            details: { host, port },
          },
        ),
      ),
    );
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      studio.close();
      server.close(() => resolve());
      // Open event streams would hold the server open.
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    return closed;
  };
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    studio,
    close,
    [Symbol.asyncDispose]: close,
  };
}
