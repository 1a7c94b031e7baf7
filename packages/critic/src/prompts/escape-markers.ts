// Tags the sim and the prompt contract read in the last user message. Text we embed (tool output, web pages,
// model answers) must not open or close one of them, or a prompt would be misread.
const markerTags =
  /<(\/?)(trajectories|trajectory|attempt|suggested_updates|experience_a|experience_b|experience|groundtruth|evaluation|problem|question|response)\b/gi;

/** Defuses contract tags inside embedded text by replacing `<` with a look-alike (‹). */
export function escapeMarkers(text: string): string {
  return text.replace(markerTags, "‹$1$2");
}
