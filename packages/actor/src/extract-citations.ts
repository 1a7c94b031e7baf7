const bracketGroup = /\[\s*(G\d+(?:\s*[,;/]\s*G\d+)*)\s*\]/g;

/**
 * Experience ids the model cited as `[G3]` (also `[G3, G7]`), in order of first citation, without duplicates.
 * With `shown`, ids the prompt did not show are left out: a model citing an entry it never saw is not evidence
 * that the entry helped, and crediting it would corrupt the library's stats.
 */
export function extractCitations(texts: readonly string[], shown?: ReadonlySet<string>): string[] {
  const cited: string[] = [];
  const seen = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(bracketGroup)) {
      for (const raw of match[1]!.split(/[,;/]/)) {
        const id = raw.trim().replace(/^G0+(?=\d)/, "G");
        if (seen.has(id)) continue;
        if (shown && !shown.has(id)) continue;
        seen.add(id);
        cited.push(id);
      }
    }
  }
  return cited;
}
