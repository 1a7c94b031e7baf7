import {
  type ContrastInterval,
  contrastDirection,
  formatContrast,
  formatContrastBounds,
  formatSigned,
} from "@tfgrpo/protocol";

/**
 * An entry's credit, its contrast (mean reward shown minus withheld), as markup: the estimate with its interval,
 * coloured by the way the interval points, and the groups it rests on; "no contrast yet" without evidence. A string
 * for the hot path of the library table (numbers only, nothing to escape); wrap it in `raw` elsewhere.
 */
export function contrastMarkup(contrast: ContrastInterval): string {
  const direction = contrastDirection(contrast);
  if (direction === "none") return `<span class="contrast contrast-none">no contrast yet</span>`;
  return `<span class="contrast contrast-${direction}" title="${formatContrast(contrast)}">${formatSigned(contrast.estimate)} ${formatContrastBounds(contrast)}</span> <span class="meta">n = ${contrast.n}</span>`;
}
