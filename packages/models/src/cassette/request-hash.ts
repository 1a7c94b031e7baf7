import { createHash } from "node:crypto";
import { safeParseJson } from "@tfgrpo/protocol";

/**
 * The identity of a model request for a cassette: method, path and body, the body's JSON with keys sorted (so the
 * order in which an SDK wrote the fields does not matter). Headers are left out: they carry the key and SDK versions,
 * none of which changes what the model is asked.
 */
export function requestHash(method: string, path: string, body: string): string {
  const parsed = body === "" ? undefined : safeParseJson<unknown>(body);
  const canonical = parsed?.success ? stableStringify(parsed.value) : body;
  return createHash("sha256").update(`${method.toUpperCase()} ${path}\n${canonical}`).digest("hex");
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableStringify(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
