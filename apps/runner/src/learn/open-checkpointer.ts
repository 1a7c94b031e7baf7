import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { TfgrpoError } from "@tfgrpo/protocol";
import { parseStoreUrl, redactUrl } from "@tfgrpo/store";

export interface OpenCheckpointer {
  saver: BaseCheckpointSaver;
  close(): Promise<void>;
}

/** The schema of the PostgreSQL checkpointer's tables: apart from the store's. */
export const checkpointSchema = "tfgrpo_checkpoints";

/**
 * The LangGraph checkpointer of learning runs (one thread per run id) at a location: a SQLite file (the embedded
 * default, beside the database) or the PostgreSQL database of the store, so a run started on one machine resumes on
 * any other with the URL. `lock` serializes the PostgreSQL setup between processes (see `PostgresStore.withLock`).
 */
export async function openCheckpointer(
  location: string,
  lock?: <T>(fn: () => Promise<T>) => Promise<T>,
): Promise<OpenCheckpointer> {
  const parsed = parseStoreUrl(location);
  if (parsed.backend === "sqlite") {
    const saver = SqliteSaver.fromConnString(parsed.path);
    return {
      saver,
      close: async () => (saver as unknown as { db?: { close(): void } }).db?.close(),
    };
  }
  const saver = PostgresSaver.fromConnString(parsed.url, { schema: checkpointSchema });
  try {
    // Runners starting at once would race to create the schema and its tables: they take turns.
    await (lock ? lock(() => saver.setup()) : saver.setup());
  } catch (error) {
    await saver.end().catch(() => {});
    throw new TfgrpoError(
      "storage_error",
      `cannot set up checkpoints in ${redactUrl(parsed.url)}: ${(error as Error).message}`,
      { cause: error, details: { url: redactUrl(parsed.url) } },
    );
  }
  return { saver, close: () => saver.end() };
}
