/**
 * How long a server asked us to wait, from `retry-after-ms` (OpenAI's, milliseconds) or `Retry-After`
 * (seconds, or an HTTP date relative to `now`). Undefined when there is no usable hint.
 */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null) {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get("retry-after")?.trim();
  if (!retryAfter) return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
