/**
 * Deterministic hashing and pseudo-randomness. Everything the sim decides comes from a hash of what it was given
 * (seed, request seed, prompt text), never from Math.random or the clock, so a run is reproducible and concurrent
 * requests cannot change each other's answers.
 */

/** cyrb53: a fast 53-bit string hash with good avalanche (public domain). */
export function hashString(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export type HashPart = string | number | boolean | null | undefined;

/** Hash of several parts; the separator keeps ("ab","c") and ("a","bc") apart. */
export function hashParts(...parts: readonly HashPart[]): number {
  return hashString(parts.map((part) => (part === undefined ? "~" : String(part))).join("\u241f"));
}

/** A number in [0, 1) from the parts. */
export function unitFrom(...parts: readonly HashPart[]): number {
  return hashParts(...parts) / 2 ** 53;
}

/** Short hex id from the parts (for completion and tool-call ids). */
export function hexFrom(length: number, ...parts: readonly HashPart[]): string {
  let out = "";
  let salt = 0;
  while (out.length < length)
    out += hashParts(salt++, ...parts)
      .toString(16)
      .padStart(14, "0");
  return out.slice(0, length);
}

/** mulberry32: a small seeded generator for sequences (suite and corpus generation). */
export function createRandom(seed: number): () => number {
  let state = hashString(String(seed)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(items: readonly T[], unit: number): T {
  if (items.length === 0) throw new RangeError("pick from an empty list");
  return items[Math.min(items.length - 1, Math.floor(unit * items.length))]!;
}

export function randomInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
