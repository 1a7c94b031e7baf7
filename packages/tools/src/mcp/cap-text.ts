/** Keeps the head and tail of a text within `max` characters, with a marker saying how much was cut. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil(max * 0.7);
  const tail = max - head;
  return `${text.slice(0, head)}\n[... ${text.length - head - tail} characters truncated ...]\n${tail > 0 ? text.slice(-tail) : ""}`;
}
