import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { TfgrpoError } from "../errors.js";

/** Embeds texts (e.g. `models.embed`): one vector per text, in order. */
export type EmbedFunction = (texts: string[]) => Promise<readonly (readonly number[] | Float32Array)[]>;

export interface EmbeddingCache {
  /** Unit-length embeddings of `texts`, in order; only texts never seen before reach `embed`, in batches. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** The cached embedding of a text, if any (no call). */
  peek(text: string): Float32Array | undefined;
  readonly size: number;
  /** Bytes the cached vectors (and their keys) hold, about. */
  readonly bytes: number;
}

export interface CreateEmbeddingCacheOptions {
  embed: EmbedFunction;
  /** Texts per `embed` call (providers cap the batch size). */
  batchSize?: number;
  /** Least recently used entries are evicted beyond this many. Default 100,000. */
  maxEntries?: number;
  /**
   * ... or beyond this many bytes of vectors, whichever comes first. Default 128 MiB (about 21,000 vectors of 1,536
   * dimensions; 100,000 of them would hold about 600 MB).
   */
  maxBytes?: number;
}

/** The default byte bound of an embedding cache. */
export const defaultEmbeddingCacheBytes = 128 * 1024 * 1024;
/** What a cached vector costs beyond its floats: its key and the two maps' entries, about. */
const entryOverheadBytes = 160;
const vectorBytes = (vector: Float32Array) => vector.byteLength + entryOverheadBytes;

/**
 * Embeddings keyed by a hash of the text. Library entries survive from version to version and from batch to batch,
 * so a 10,000-entry library is embedded once per process (by the actor's retrieval and by the curator's duplicate
 * and conflict blocking alike), and the same task embedded for each of its G rollouts costs one call. Concurrent
 * requests for the same text share one call; a failed call is forgotten so a later request retries it.
 */
export function createEmbeddingCache(options: CreateEmbeddingCacheOptions): EmbeddingCache {
  const batchSize = options.batchSize ?? 256;
  const maxEntries = options.maxEntries ?? 100_000;
  const maxBytes = options.maxBytes ?? defaultEmbeddingCacheBytes;
  // In flight or settled, by text: concurrent requests share one call. A settled vector leaves with its LRU entry.
  const pending = new Map<string, Promise<Float32Array>>();
  const settled = new LRUCache<string, Float32Array>({
    max: maxEntries,
    maxSize: maxBytes,
    // Clamped, so that the newest is kept even alone over the bound (lru-cache would refuse it): it is about to be used.
    sizeCalculation: (vector) => Math.min(vectorBytes(vector), maxBytes),
    dispose: (_vector, key, reason) => {
      if (reason === "evict") pending.delete(key);
    },
  });
  const remember = (key: string, vector: Float32Array) => {
    settled.set(key, vector);
  };
  // A use marks the vector recently used.
  const touch = (key: string) => {
    settled.get(key);
  };

  return {
    get size() {
      return settled.size;
    },
    get bytes() {
      return settled.calculatedSize;
    },
    peek(text) {
      return settled.get(hashText(text));
    },
    async embed(texts) {
      const keys = texts.map(hashText);
      const missing: { key: string; text: string }[] = [];
      const seen = new Set<string>();
      keys.forEach((key, index) => {
        if (pending.has(key)) touch(key);
        else if (!seen.has(key)) {
          seen.add(key);
          missing.push({ key, text: texts[index]! });
        }
      });
      for (let start = 0; start < missing.length; start += batchSize) {
        const batch = missing.slice(start, start + batchSize);
        const call = options.embed(batch.map((item) => item.text)).then((vectors) => {
          if (vectors.length !== batch.length) {
            throw new TfgrpoError(
              "model_error",
              `embed returned ${vectors.length} vectors for ${batch.length} texts`,
              { details: { expected: batch.length, got: vectors.length } },
            );
          }
          return vectors.map((vector) => normalize(vector));
        });
        batch.forEach((item, index) => {
          const promise = call.then((vectors) => {
            const vector = vectors[index]!;
            remember(item.key, vector);
            return vector;
          });
          promise.catch(() => pending.delete(item.key));
          pending.set(item.key, promise);
        });
      }
      return Promise.all(keys.map((key) => pending.get(key)!));
    },
  };
}

export function hashText(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

/** Unit length, as Float32Array; a zero vector stays zero. */
export function normalize(vector: readonly number[] | Float32Array): Float32Array {
  const out = Float32Array.from(vector);
  let sum = 0;
  for (let index = 0; index < out.length; index++) sum += out[index]! * out[index]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let index = 0; index < out.length; index++) out[index] = out[index]! / norm;
  return out;
}
