import { createHash } from "node:crypto";
import { TfgrpoError } from "@tfgrpo/protocol";

/** Embeds texts (e.g. `models.embed`): one vector per text, in order. */
export type EmbedFunction = (texts: string[]) => Promise<number[][] | Float32Array[]>;

export interface EmbeddingCache {
  /** Unit-length embeddings of `texts`, in order; only texts never seen before reach `embed`. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** The cached embedding of a text, if any (no call). */
  peek(text: string): Float32Array | undefined;
  readonly size: number;
}

export interface CreateEmbeddingCacheOptions {
  embed: EmbedFunction;
  /** Texts per `embed` call (providers cap the batch size). */
  batchSize?: number;
  /** Oldest entries are evicted beyond this many. */
  maxEntries?: number;
}

/**
 * Embeddings keyed by a hash of the text, so an entry that survives from version to version (most do) is embedded
 * once, and the same task embedded for each of its G rollouts costs one call. Concurrent requests for the same text
 * share one call.
 */
export function createEmbeddingCache(options: CreateEmbeddingCacheOptions): EmbeddingCache {
  const batchSize = options.batchSize ?? 256;
  const maxEntries = options.maxEntries ?? 100_000;
  const cache = new Map<string, Promise<Float32Array>>();
  const settled = new Map<string, Float32Array>();

  const remember = (key: string, vector: Float32Array) => {
    settled.set(key, vector);
    while (settled.size > maxEntries) {
      const oldest = settled.keys().next().value as string;
      settled.delete(oldest);
      cache.delete(oldest);
    }
  };

  return {
    get size() {
      return settled.size;
    },
    peek(text) {
      return settled.get(hashText(text));
    },
    async embed(texts) {
      const keys = texts.map(hashText);
      const missing: { key: string; text: string }[] = [];
      const seen = new Set<string>();
      keys.forEach((key, index) => {
        if (!cache.has(key) && !seen.has(key)) {
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
          // A failed call is forgotten so a later rollout can retry it; callers still see the error.
          promise.catch(() => cache.delete(item.key));
          cache.set(item.key, promise);
        });
      }
      return Promise.all(keys.map((key) => cache.get(key)!));
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
