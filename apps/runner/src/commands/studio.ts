import { createHashingEmbedder, createManualCurator } from "@tfgrpo/curator";
import { createModels, loadModelsConfig } from "@tfgrpo/models";
import { createStore, localDatabaseFile } from "@tfgrpo/store";
import { defaultStudioPort, startStudio } from "@tfgrpo/studio";
import type { Command } from "commander";
import { databaseOption, requireExistingDatabase } from "../cli-options/database-option.js";
import { nonNegativeInteger } from "../cli-options/number-arguments.js";
import { renderReport } from "../report/render-report.js";
import { collectReportData } from "../report/report-data.js";
import { loadCuratorSettings } from "../roles/curator.js";
import { resolveDatabase } from "./library.js";

interface StudioOptions {
  db?: string;
  config?: string;
  port: number;
  host: string;
}

/**
 * `tfgrpo studio`: the library studio over the workspace database (browse, diff, review, curate; every change a
 * committed version through the curator). Loopback by default; another host needs TFGRPO_STUDIO_TOKEN.
 */
export function registerStudioCommand(program: Command): void {
  program
    .command("studio")
    .description("Serve the library studio: browse, diff, review and curate libraries in a browser")
    .addOption(databaseOption())
    .option("--port <port>", `port (0 picks a free one)`, nonNegativeInteger, defaultStudioPort)
    .option(
      "--host <host>",
      "address to listen on (anything but loopback requires $TFGRPO_STUDIO_TOKEN)",
      "127.0.0.1",
    )
    .option(
      "--config <file>",
      "models config: the curator model then checks edited lessons against similar ones for conflicts (default: $TFGRPO_CONFIG; without one, the rule scan only)",
    )
    .action(async (options: StudioOptions) => {
      const db = resolveDatabase(options);
      requireExistingDatabase(db);
      const file = localDatabaseFile(db);
      const curatorConfig = process.env.TFGRPO_CURATOR_CONFIG
        ? await loadCuratorSettings(process.env.TFGRPO_CURATOR_CONFIG)
        : {};
      const modelsFile = options.config ?? process.env.TFGRPO_CONFIG;
      const modelsConfig = modelsFile ? await loadModelsConfig(modelsFile, { env: process.env }) : null;
      const store = await createStore(db, { mustExist: true });
      const curator = createManualCurator({
        store,
        config: curatorConfig,
        ...(modelsConfig
          ? {
              models: createModels(modelsConfig, {
                env: process.env,
                logger: { warn: (message) => process.stderr.write(`studio: ${message}\n`) },
              }),
              // Without an embedder role, conflict blocking uses the local hashing embedding (as the curator role does).
              ...(modelsConfig.roles.embedder === undefined ? { embed: createHashingEmbedder() } : {}),
            }
          : {}),
      });
      let running: Awaited<ReturnType<typeof startStudio>>;
      try {
        running = await startStudio({
          store,
          host: options.host,
          port: options.port,
          token: process.env.TFGRPO_STUDIO_TOKEN || undefined,
          curator,
          curatorConfig,
          renderRunReport: async (runId) => renderReport(await collectReportData(store, runId)),
        });
      } catch (error) {
        await store.close();
        throw error;
      }
      process.stdout.write(
        `tfgrpo studio: ${running.url} (database ${file ?? "on the server"}; Ctrl-C stops it)\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          resolve();
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      await running.close();
      await store.close();
    });
}
