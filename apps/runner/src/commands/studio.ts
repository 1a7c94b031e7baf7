import { createHashingEmbedder, createManualCurator } from "@tfgrpo/curator";
import { createModels, loadModelsConfig } from "@tfgrpo/models";
import { createStore, localDatabaseFile } from "@tfgrpo/store";
import { startStudio } from "@tfgrpo/studio";
import { requireExistingDatabase } from "../cli-options/require-existing-database.js";
import { renderReport } from "../report/render-report.js";
import { collectReportData } from "../report/report-data.js";
import { loadCuratorSettings } from "../roles/curator.js";
import { resolveDatabase } from "./library.js";
import type { StudioOptions } from "./studio-command-options.js";

export type { StudioOptions };

/** `tfgrpo studio`: serves the library studio until Ctrl-C. */
export async function studio(options: StudioOptions): Promise<void> {
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
}
