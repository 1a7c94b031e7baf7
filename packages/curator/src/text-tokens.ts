/** Function words that carry no topic. Negations are deliberately absent: they decide whether two rules agree. */
export const stopwords: ReadonlySet<string> = new Set(
  (
    "a an the and or of to in on at by for with from into onto as is are was were be been being it its this that these " +
    "those their there then than so such which who whom whose what when where while if each any all both some your you " +
    "our we they them he she his her can could may might will would shall also very more most less much many via per " +
    "about over under out using use used"
  ).split(" "),
);

/** Lowercase words and numbers, apostrophes kept inside words (don't), everything else a separator. */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .split(/[^\p{L}\p{N}']+/u)
    .map((word) => word.replace(/^'+|'+$/g, ""))
    .filter((word) => word.length > 0);
}

/**
 * A light English stemmer (a few suffix rules, not Porter): enough for "verifying" ~ "verify" ~ "verified" and
 * "endpoints" ~ "endpoint", which is what paraphrase and opposite-phrasing detection need.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  if (w.endsWith("ied") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ly") && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith("ation") && w.length > 7) w = w.slice(0, -5);
  else if (w.endsWith("ion") && w.length > 5) w = w.slice(0, -3);
  if (w.endsWith("ific")) w = `${w.slice(0, -4)}ify`;
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  // Doubled final consonants (stopped -> stopp) collapse, so all forms of a verb meet.
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !w.endsWith("ss") && !w.endsWith("ll")) w = w.slice(0, -1);
  return w;
}

/** Content-word stems of a text, in order. */
export function contentStems(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) if (!stopwords.has(word)) out.push(stem(word));
  return out;
}

/** Exact-duplicate key: case, spacing and punctuation do not make two lessons different. */
export function normalizeText(text: string): string {
  return words(text).join(" ");
}
