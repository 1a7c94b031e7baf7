import { contentStems } from "./text-tokens.js";

export type EmbedFunction = (texts: readonly string[]) => Promise<number[][]>;

/** FNV-1a, 32-bit: fast, stable across runs and machines. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * A deterministic local embedding (signed feature hashing of content-word stems and stem bigrams, L2-normalised).
 * Texts sharing most of their content words are close, which is what duplicate and conflict blocking need. It is no
 * semantic model: it is for tests, benchmarks and offline use where no embedder endpoint is configured.
 */
export function hashingEmbed(text: string, dimensions = 256): Float32Array {
  const vector = new Float32Array(dimensions);
  const stems = contentStems(text);
  const add = (feature: string, weight: number) => {
    const hash = fnv1a(feature);
    vector[hash % dimensions]! += hash & 0x80000000 ? -weight : weight;
  };
  for (let index = 0; index < stems.length; index++) {
    add(stems[index]!, 1);
    if (index + 1 < stems.length) add(`${stems[index]} ${stems[index + 1]}`, 0.5);
  }
  let norm = 0;
  for (let index = 0; index < dimensions; index++) norm += vector[index]! * vector[index]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let index = 0; index < dimensions; index++) vector[index]! /= norm;
  return vector;
}

export function createHashingEmbedder(options: { dimensions?: number } = {}): EmbedFunction {
  const dimensions = options.dimensions ?? 256;
  return async (texts) => texts.map((text) => Array.from(hashingEmbed(text, dimensions)));
}
