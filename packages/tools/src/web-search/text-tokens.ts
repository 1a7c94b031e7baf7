const stopwords = new Set(
  (
    "a an and are as at be been but by can did do does for from had has have he her his how i if in into is it its " +
    "of on or our she so than that the their them then there these they this to was we were what when where which " +
    "who whom why will with you your"
  ).split(" "),
);

/** A light stemmer: enough to match "primes" with "prime" and "queries" with "query", nothing clever. */
function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(sses|xes|ches|shes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * Search tokens: case and accents folded, stopwords dropped, light stemming. Han characters are single tokens
 * (Chinese has no spaces), so a Chinese query still matches a Chinese document.
 */
export function tokenize(text: string): string[] {
  const folded = text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/(\p{Script=Han})/gu, " $1 ");
  const tokens: string[] = [];
  for (const match of folded.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (stopwords.has(word)) continue;
    tokens.push(stem(word));
  }
  return tokens;
}
