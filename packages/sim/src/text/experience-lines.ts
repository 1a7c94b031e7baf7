/** One `[G3]. text` line as it appears in every prompt that shows experiences. */
export interface ExperienceLine {
  id: string;
  text: string;
}

const linePattern = /^\s*(?:[-*]\s*)?\[((?:G|P)\d+)\]\.?\s*(.+?)\s*$/;

/** Every experience line of a text, first occurrence of each id kept (the actor prompt may repeat a few). */
export function parseExperienceLines(text: string): ExperienceLine[] {
  const seen = new Set<string>();
  const out: ExperienceLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const m = linePattern.exec(raw);
    if (!m || seen.has(m[1]!)) continue;
    seen.add(m[1]!);
    out.push({ id: m[1]!, text: m[2]! });
  }
  return out;
}

/** Text between `<tag ...>` and `</tag>` (first occurrence), or null. */
export function between(text: string, tag: string): string | null {
  const open = new RegExp(`<${tag}(?:\\s[^>]*)?>`).exec(text);
  if (!open) return null;
  const start = open.index + open[0].length;
  const end = text.indexOf(`</${tag}>`, start);
  return (end === -1 ? text.slice(start) : text.slice(start, end)).trim();
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
