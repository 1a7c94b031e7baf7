import { hashString } from "./hash.js";

/** Deterministic token estimate: about four characters per token, like common BPE tokenizers on English. */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

export interface PromptCache {
  /**
   * Records a prompt of a session and returns how many leading characters of it were already cached by an earlier
   * prompt of the same session (a multiple of the block size, as providers cache in blocks).
   */
  lookupAndStore(session: string, prompt: string): number;
}

/**
 * Simulated provider prompt caching. Each prompt is cut into fixed blocks; block k's key is a hash chained over
 * blocks 0..k, so it names the whole prefix. A new prompt's cached part is its longest prefix whose key was seen
 * before in the session. Linear in the prompt length, whatever the number of earlier prompts.
 */
export function createPromptCache(options: { blockChars?: number; maxKeys?: number } = {}): PromptCache {
  const blockChars = options.blockChars ?? 64;
  const maxKeys = options.maxKeys ?? 1_000_000;
  const sessions = new Map<string, Set<number>>();
  let size = 0;
  return {
    lookupAndStore(session, prompt) {
      let keys = sessions.get(session);
      if (!keys) {
        keys = new Set();
        sessions.set(session, keys);
      }
      const blocks = Math.floor(prompt.length / blockChars);
      let chained = 0;
      let cachedBlocks = 0;
      let stillCached = true;
      const fresh: number[] = [];
      for (let k = 0; k < blocks; k++) {
        chained = hashString(prompt.slice(k * blockChars, (k + 1) * blockChars), chained % 2147483647);
        if (stillCached && keys.has(chained)) cachedBlocks = k + 1;
        else {
          stillCached = false;
          fresh.push(chained);
        }
      }
      if (size + fresh.length > maxKeys) {
        // Evict everything rather than track recency: a cold cache is a realistic state, unbounded memory is not.
        sessions.clear();
        size = 0;
        keys = new Set();
        sessions.set(session, keys);
      }
      for (const key of fresh) keys.add(key);
      size += fresh.length;
      return cachedBlocks * blockChars;
    },
  };
}
