import { gaussian, seededRandom, seedFrom } from "@tfgrpo/protocol";

export interface TaskStratifierOptions {
  /** Random hyperplanes cutting the embedding space: 2^bits buckets of similar tasks. Default 3 (8 buckets). */
  bits?: number;
  /** Seed of the hyperplanes; every process serving a store must use the same one (default: fixed). */
  seed?: number;
}

/** The stratum of one task: the family its client named, else the embedding bucket, else one stratum for all. */
export type TaskStratifier = (task: { family?: string; vector: ArrayLike<number> | null }) => string;

/**
 * Online credit compares requests that showed an entry with requests that did not, on SIMILAR tasks: a task is put
 * in a stratum, and only reports of one stratum are compared (`settleContrast` in the store). The stratum is the task
 * family when the client names one (`family` in get_experiences); otherwise the sign pattern of the task embedding
 * against `bits` seeded random hyperplanes (SimHash: tasks at a small angle share a bucket); without embeddings, one
 * stratum (the random arms still balance everything else, only with more noise). Stateless and seeded, so every
 * process serving the same store puts a task in the same stratum.
 */
export function createTaskStratifier(options: TaskStratifierOptions = {}): TaskStratifier {
  const bits = options.bits ?? 3;
  const seed = options.seed ?? 25;
  const planes = new Map<number, Float64Array[]>();
  const planesFor = (dimensions: number) => {
    let list = planes.get(dimensions);
    if (!list) {
      const normal = gaussian(seededRandom(seedFrom(seed, dimensions, "strata")));
      list = Array.from({ length: bits }, () => Float64Array.from({ length: dimensions }, normal));
      planes.set(dimensions, list);
    }
    return list;
  };
  return ({ family, vector }) => {
    if (family !== undefined) return `family:${family}`;
    if (vector === null || vector.length === 0 || bits === 0) return "all";
    let bucket = "";
    for (const plane of planesFor(vector.length)) {
      let dot = 0;
      for (let i = 0; i < vector.length; i++) dot += plane[i]! * vector[i]!;
      bucket += dot >= 0 ? "1" : "0";
    }
    return `simhash:${bucket}`;
  };
}
