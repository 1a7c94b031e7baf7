import { createHash } from "node:crypto";

/**
 * A deterministic stand-in for an embedding model in unit tests and benchmarks: lowercase words (and word pairs)
 * hashed into `dimensions` buckets, so texts that share words are similar. Not a semantic model — just enough
 * signal to check that retrieval ranks by similarity.
 */
export function hashedEmbedding(text: string, dimensions = 256): Float32Array {
  const vector = new Float32Array(dimensions);
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const features = [...words, ...words.slice(1).map((word, index) => `${words[index]} ${word}`)];
  for (const feature of features) {
    const digest = createHash("md5").update(feature).digest();
    const bucket = digest.readUInt32BE(0) % dimensions;
    vector[bucket] = vector[bucket]! + (digest[4]! & 1 ? 1 : -1);
  }
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum) || 1;
  for (let index = 0; index < dimensions; index++) vector[index] = vector[index]! / norm;
  return vector;
}

/** `hashedEmbedding` as an `embed` dependency, counting the texts it was asked for. */
export function createHashedEmbed(dimensions = 256): {
  embed: (texts: string[]) => Promise<Float32Array[]>;
  calls: string[][];
} {
  const calls: string[][] = [];
  return {
    calls,
    embed: async (texts) => {
      calls.push([...texts]);
      return texts.map((text) => hashedEmbedding(text, dimensions));
    },
  };
}
