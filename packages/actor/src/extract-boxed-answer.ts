const boxedCommand = /\\(?:boxed|fbox)\s*\{/g;

/**
 * The content of the last `\boxed{...}` in a text, with nested braces balanced (`\boxed{\frac{1}{2}}` gives
 * `\frac{1}{2}`), trimmed; null when there is none or its braces never close.
 */
export function extractBoxedAnswer(text: string): string | null {
  let last: string | null = null;
  for (const match of text.matchAll(boxedCommand)) {
    const start = match.index + match[0].length;
    let depth = 1;
    let index = start;
    for (; index < text.length && depth > 0; index++) {
      const char = text[index];
      if (char === "\\") index++;
      else if (char === "{") depth++;
      else if (char === "}") depth--;
    }
    if (depth === 0) last = text.slice(start, index - 1).trim();
  }
  return last;
}
