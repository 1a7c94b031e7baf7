import { type CorpusWorld, createCorpusWorld } from "./corpus.js";
import { type MathInstance, recognizeMathQuestion } from "./suites/math.js";
import { recognizeTicketsQuestion, type TicketsInstance } from "./suites/tickets.js";
import { recognizeWebQuestion, type WebInstance } from "./suites/web.js";

export type TaskInstance = MathInstance | WebInstance | TicketsInstance;

/**
 * The sim's world for one seed: the simulated web and the registry of every task it can generate. The server reads
 * a question and asks the world what task it is, exactly as generated suites wrote it.
 */
export interface SimWorld {
  seed: number;
  corpus: CorpusWorld;
  recognize(question: string): TaskInstance | null;
}

const worlds = new Map<number, SimWorld>();
const recognitionCacheSize = 4096;

export function createWorld(seed: number): SimWorld {
  const existing = worlds.get(seed);
  if (existing) return existing;
  const corpus = createCorpusWorld(seed);
  const cache = new Map<string, TaskInstance | null>();
  const world: SimWorld = {
    seed,
    corpus,
    recognize(question) {
      const key = question.trim();
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const found =
        recognizeMathQuestion(key) ?? recognizeWebQuestion(corpus, key) ?? recognizeTicketsQuestion(key);
      if (cache.size >= recognitionCacheSize) cache.delete(cache.keys().next().value!);
      cache.set(key, found);
      return found;
    },
  };
  worlds.set(seed, world);
  return world;
}
