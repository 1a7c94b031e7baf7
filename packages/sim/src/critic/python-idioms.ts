import { choiceIdioms } from "./idioms/choice-idioms.js";
import { countingIdioms } from "./idioms/counting-idioms.js";
import { divisionIdioms } from "./idioms/division-idioms.js";
import type { Idiom } from "./idioms/idiom.js";
import { meanIdioms } from "./idioms/mean-idioms.js";
import { remainderIdioms } from "./idioms/remainder-idioms.js";
import { rootIdioms } from "./idioms/root-idioms.js";
import { roundingIdioms } from "./idioms/rounding-idioms.js";

/**
 * The critic's own knowledge of Python and of elementary math: what common idioms compute and where they go wrong
 * (`range(lo + 1, hi)` leaves out both bounds, `math.fmod` keeps the dividend's sign, `cmath.sqrt` returns complex
 * roots, rounding in between drifts, a plain average of means ignores group sizes, `perm` counts orders, squaring
 * a draw probability assumes replacement, `//` drops the fraction). It is general knowledge a capable model has,
 * written here in the critic's words; it knows nothing about which mistakes the simulated policy makes.
 */

export { type CodeView, codeView } from "./idioms/code-view.js";
export type { Idiom, IdiomMatch } from "./idioms/idiom.js";

/** Every idiom the critic knows, most specific first. */
export const pythonIdioms: readonly Idiom[] = [
  ...countingIdioms,
  ...rootIdioms,
  ...roundingIdioms,
  ...remainderIdioms,
  ...meanIdioms,
  ...choiceIdioms,
  ...divisionIdioms,
];

export function idiomById(id: string): Idiom | undefined {
  return pythonIdioms.find((idiom) => idiom.id === id);
}
