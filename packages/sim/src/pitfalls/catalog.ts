import { mathHeldOutPitfalls } from "./math-held-out-pitfalls.js";
import { mathPitfalls } from "./math-pitfalls.js";
import type { Pitfall } from "./pitfall.js";
import { webPitfalls } from "./web-pitfalls.js";

/** Every pitfall of the world (the policy's knowledge; other simulated roles never import this). */
export const allPitfalls: readonly Pitfall[] = [...mathPitfalls, ...mathHeldOutPitfalls, ...webPitfalls];

const byId = new Map(allPitfalls.map((pitfall) => [pitfall.id, pitfall]));

export function getPitfall(id: string): Pitfall | undefined {
  return byId.get(id);
}
