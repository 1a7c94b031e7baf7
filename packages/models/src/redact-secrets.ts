/**
 * API keys must never reach logs, errors, stored records or exports. Every key tfgrpo reads from the environment is
 * registered here, and every message that leaves this package goes through `redactSecrets`. Generic patterns catch
 * keys we never registered (a provider echoing a header, a key pasted into a prompt).
 */
const registeredSecrets = new Set<string>();

const replacement = "[REDACTED]";

/** Remember a secret value so that `redactSecrets` removes it wherever it appears. */
export function registerSecret(value: string | undefined): void {
  // Very short values would shred unrelated text; no real API key is this short.
  if (value && value.length >= 4) registeredSecrets.add(value);
}

const genericPatterns: Array<[RegExp, string]> = [
  [/(bearer\s+)[A-Za-z0-9._~+/=-]{6,}/gi, `$1${replacement}`],
  [/\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, `$1-${replacement}`],
  [
    /((?:api[_-]?key|authorization|x-api-key|access[_-]?token)["']?\s*[:=]\s*["']?)(?!\[REDACTED\]|bearer\s)[^"'\s,}&]{6,}/gi,
    `$1${replacement}`,
  ],
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of registeredSecrets) {
    if (out.includes(secret)) out = out.split(secret).join(replacement);
  }
  for (const [pattern, substitute] of genericPatterns) out = out.replace(pattern, substitute);
  return out;
}

/** `redactSecrets` over every string inside a plain value (error details, log fields). */
export function redactValue<T>(value: T): T {
  if (typeof value === "string") return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactValue(item)) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, redactValue(item)]),
    ) as T;
  }
  return value;
}
