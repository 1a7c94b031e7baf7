import { safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { request } from "undici";
import type { z } from "zod";

export interface RequestJsonOptions<T> {
  /** Names the service in errors ("SearXNG", "Tavily"...). */
  service: string;
  url: URL;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  maxBytes?: number;
  schema: z.ZodType<T>;
  /** Values that must never appear in an error message (API keys), even if a server echoes them. */
  secrets?: string[];
  signal?: AbortSignal;
}

/** A JSON API call with timeouts, a size cap and a validated answer; errors name the service and the endpoint only. */
export async function requestJson<T>(options: RequestJsonOptions<T>): Promise<T> {
  const endpoint = `${options.url.origin}${options.url.pathname}`;
  const redact = (text: string) =>
    (options.secrets ?? [])
      .filter(Boolean)
      .reduce((out, secret) => out.replaceAll(secret, "[redacted]"), text);
  const fail = (message: string, cause?: unknown): never => {
    throw new TfgrpoError(
      "tool_error",
      redact(`${options.service} search failed (${endpoint}): ${message}`),
      {
        ...(cause === undefined
          ? {}
          : { cause: new Error(redact(String((cause as Error)?.message ?? cause))) }),
        details: { service: options.service, endpoint },
      },
    );
  };
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(options.url, {
      method: options.method ?? "GET",
      headers: {
        accept: "application/json",
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    return fail((error as Error).message, error);
  }
  const maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        response.body.destroy();
        return fail(`answer larger than ${maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    return fail(`reading the answer: ${(error as Error).message}`, error);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (response.statusCode >= 400) {
    return fail(`HTTP ${response.statusCode}: ${text.slice(0, 200).replace(/\s+/g, " ")}`);
  }
  const parsed = safeParseJson(text, options.schema);
  if (!parsed.success) return fail(`unexpected answer: ${parsed.error}`);
  return parsed.value;
}

/** Reads an API key from the environment at call time; the error names the variable, never a value. */
export function readApiKey(service: string, apiKeyEnv: string, env: NodeJS.ProcessEnv): string {
  const value = env[apiKeyEnv];
  if (!value) {
    throw new TfgrpoError(
      "invalid_config",
      `${service} search needs an API key in the environment variable ${apiKeyEnv}`,
      {
        details: { service, apiKeyEnv },
      },
    );
  }
  return value;
}
