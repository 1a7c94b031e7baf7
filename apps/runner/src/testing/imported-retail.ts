import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { makeAsyncResource, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { loadRetailDb, serveRetailMcpHttp } from "@tfgrpo/tau2-retail";
import { stringify } from "yaml";
import { dataImport } from "../commands/data.js";
import { retailDomainSettings } from "../data-import/import-tau2-retail.js";
import { repositoryRoot } from "./spawn-cli.js";

/** τ²-bench retail as `data import --preset tau2-retail` writes it, its store served over Streamable HTTP. */
export interface ImportedRetail {
  /** The import's folder: tasks, db.json, `tau2-retail.yaml` (actor settings), `tau2-retail.critic.yaml`. */
  dir: string;
  /** The imported database the server serves. */
  db: ReturnType<typeof loadRetailDb>;
  /** The server (its endpoint `url`, its open `sessions`). */
  server: Awaited<ReturnType<typeof serveRetailMcpHttp>>;
  /** The actor settings file, pointing at the served store with a session per attempt. */
  actorSettings: string;
  /** A task file of the first `tasks` test tasks. */
  tasks: string;
}

/**
 * Imports the repository's τ²-bench retail sample into a fresh folder, serves its store over HTTP (one MCP session per
 * attempt, no process per attempt), and writes the actor settings (`tau2-retail.yaml`, so `--settings DIR` finds
 * them) and a task file of the first test tasks. Disposing stops the server and removes the folder.
 */
export async function importedRetail(options: {
  tasks: number;
  prefix?: string;
}): Promise<ImportedRetail & AsyncDisposable> {
  const out = await temporaryDirectory(options.prefix ?? "tfgrpo-retail-");
  try {
    await dataImport(
      [path.join(repositoryRoot, "test-data/tau2-bench-retail")],
      { seed: 1, extractBoxed: "auto", answers: true, preset: "tau2-retail", outDir: out.path },
      { stderr: { write: () => true }, stdout: { write: () => true } },
    );
    const db = loadRetailDb(path.join(out.path, "db.json"));
    const server = await serveRetailMcpHttp({ initial: db, port: 0 });
    const actorSettings = path.join(out.path, "tau2-retail.yaml");
    await writeFile(
      actorSettings,
      stringify({
        ...retailDomainSettings("Follow the store policy.", { command: "unused", args: [] }),
        tools: { servers: { "tau2-retail": { url: server.url, environment: "session" } } },
      }),
    );
    const lines = (await readFile(path.join(out.path, "test.jsonl"), "utf8")).split("\n").filter(Boolean);
    const tasks = path.join(out.path, `test${options.tasks}.jsonl`);
    await writeFile(tasks, `${lines.slice(0, options.tasks).join("\n")}\n`);
    return makeAsyncResource({ dir: out.path, db, server, actorSettings, tasks }, async () => {
      await server[Symbol.asyncDispose]();
      await out[Symbol.asyncDispose]();
    });
  } catch (error) {
    await out[Symbol.asyncDispose]();
    throw error;
  }
}
