import { TfgrpoError } from "@tfgrpo/protocol";
import type { EmbedFunction } from "./hashing-embedder.js";

export interface EmbeddingCache {
  /** Embeddings of the texts (deduplicated; only texts not seen before reach the embedder, in batches). */
  embed(texts: Iterable<string>): Promise<Map<string, Float32Array>>;
  readonly size: number;
}

/**
 * Library texts are the same from batch to batch, so a 10,000-entry library is embedded once per process, not once
 * per consolidation. Least recently used texts are evicted beyond `maxEntries`.
 */
export function createEmbeddingCache(
  embed: EmbedFunction,
  options: { maxEntries?: number; batchSize?: number } = {},
): EmbeddingCache {
  const maxEntries = options.maxEntries ?? 50_000;
  const batchSize = options.batchSize ?? 256;
  const cache = new Map<string, Float32Array>();
  return {
    get size() {
      return cache.size;
    },
    async embed(texts) {
      const wanted = [...new Set(texts)];
      const missing = wanted.filter((text) => !cache.has(text));
      for (let start = 0; start < missing.length; start += batchSize) {
        const batch = missing.slice(start, start + batchSize);
        const vectors = await embed(batch);
        if (vectors.length !== batch.length) {
          throw new TfgrpoError(
            "model_error",
            `embedder returned ${vectors.length} vectors for ${batch.length} texts`,
            { details: { expected: batch.length, got: vectors.length } },
          );
        }
        batch.forEach((text, index) => {
          cache.set(text, Float32Array.from(vectors[index]!));
        });
      }
      const out = new Map<string, Float32Array>();
      for (const text of wanted) {
        const vector = cache.get(text)!;
        // Re-insert to mark as recently used (Map keeps insertion order).
        cache.delete(text);
        cache.set(text, vector);
        out.set(text, vector);
      }
      while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
      return out;
    },
  };
}
