const namedEntities: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  copy: "©",
  reg: "®",
  deg: "°",
  times: "×",
  divide: "÷",
  minus: "−",
  le: "≤",
  ge: "≥",
  ne: "≠",
  plusmn: "±",
  laquo: "«",
  raquo: "»",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code =
        body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return namedEntities[body.toLowerCase()] ?? whole;
  });
}

/**
 * Plain text of an HTML document for indexing: fast and forgiving (broken HTML is the norm), not a renderer.
 * Block elements become line breaks so that passages stay apart for snippets.
 */
export function htmlToText(html: string): { title: string | undefined; text: string } {
  const titleMatch = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html) ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html);
  const title = titleMatch ? collapse(decodeEntities(titleMatch[1]!.replace(/<[^>]*>/g, ""))) : undefined;
  const text = html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<(script|style|noscript|template|svg|head)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(
      /<\/?(p|div|section|article|li|ul|ol|tr|table|h[1-6]|br|hr|blockquote|pre|dd|dt|header|footer)\b[^>]*>/gi,
      "\n",
    )
    .replace(/<[^>]*>/g, " ");
  return {
    title: title || undefined,
    text: decodeEntities(text)
      .replace(/[ \t\f\v\r]+/g, " ")
      .replace(/\n\s*/g, "\n")
      .trim(),
  };
}

/** Plain text of Markdown for indexing: markup dropped, link text kept. */
export function markdownToText(markdown: string): { title: string | undefined; text: string } {
  const heading = /^#{1,6}\s+(.+)$/m.exec(markdown);
  const text = markdown
    .replace(/^---\n[\s\S]*?\n---\n/, "")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/[*_`>|]+/g, " ")
    .replace(/[ \t]+/g, " ")
    .trim();
  return { title: heading ? collapse(heading[1]!.replace(/[*_`]/g, "")) : undefined, text };
}

export function looksLikeHtml(content: string): boolean {
  return /<(html|body|head|p|div|h[1-6]|article|section|table|ul|span|a)\b[^>]*>/i.test(
    content.slice(0, 5000),
  );
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
