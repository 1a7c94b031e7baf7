/**
 * Cuts a long text to `maxChars`, keeping its head and tail (a traceback's last line or a page's conclusion often
 * matters as much as its start) with a marker saying how much was left out.
 */
export function truncateText(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const marker = (omitted: number) => `\n[... ${omitted} characters omitted ...]\n`;
  const room = Math.max(0, maxChars - marker(text.length).length);
  const head = Math.ceil(room * 0.7);
  const tail = room - head;
  const omitted = text.length - head - tail;
  return {
    text: text.slice(0, head) + marker(omitted) + (tail > 0 ? text.slice(text.length - tail) : ""),
    truncated: true,
  };
}
