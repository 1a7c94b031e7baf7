import { makeAsyncResource } from "@tfgrpo/protocol/testing";
import { createSimServer, type SimServer } from "@tfgrpo/sim";
import { createStore, type Store } from "@tfgrpo/store";

export interface SimLibraryWorldOptions {
  /** The SIMULATED model server's seed. */
  seed: number;
  /** The store's file (default: in memory). */
  db?: string;
  /** The library's domain (default math). */
  domain?: string;
  /** Entries of the library's first committed version: active ones by text, or text and status. */
  entries: ReadonlyArray<string | { text: string; status: "active" | "candidate" }>;
}

export interface SimLibraryWorld extends AsyncDisposable {
  /** The SIMULATED model server an agent's OpenAI-compatible client points at (`sim.url`). */
  sim: SimServer;
  store: Store;
  close(): Promise<void>;
}

/**
 * What an agent integration's test stands on: the SIMULATED model server and a store holding a small library, closed
 * together (`await using`, or `close()` in `afterAll`).
 */
export async function startSimLibraryWorld(options: SimLibraryWorldOptions): Promise<SimLibraryWorld> {
  const sim = await createSimServer({ seed: options.seed });
  let store: Store;
  try {
    store = await createStore(options.db ?? ":memory:");
    await store.applyOperations(
      options.domain ?? "math",
      options.entries.map((entry) => {
        const { text, status } =
          typeof entry === "string" ? { text: entry, status: "active" as const } : entry;
        return { op: "add" as const, text, reason: "r", status };
      }),
      { parent: null, state: "committed" },
    );
  } catch (error) {
    await sim.close();
    throw error;
  }
  const close = async () => {
    await store.close();
    await sim.close();
  };
  return makeAsyncResource({ sim, store, close }, close);
}
