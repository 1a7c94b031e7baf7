import { appendFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { type Role, readUserTextSync, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import { redactSecrets, redactValue } from "../redact-secrets.js";
import type { Fetch } from "../retrying-fetch.js";
import { requestHash } from "./request-hash.js";

/** The file of a cassette directory that holds its exchanges, one JSON object a line. */
export const cassetteFileName = "exchanges.jsonl";

/**
 * Every model request and response of a run, at the HTTP layer under both SDKs, so every role is covered: recorded
 * (`--record DIR`) while a run talks to its providers, or served back (`--replay DIR`) with no provider at all.
 */
export interface Cassette {
  readonly mode: "record" | "replay";
  readonly directory: string;
  /** One role's model traffic: over `base` while recording, instead of it while replaying. */
  fetchFor(role: Role, base: Fetch): Fetch;
  /** What the run is doing now (e.g. `step 2 rollouts`), named with each exchange and in a replay miss. */
  setStep(step: string): void;
  /** Exchanges recorded, or served back, so far. */
  readonly exchanges: number;
}

const sensitiveHeaders =
  /^(authorization|api-key|x-api-key|proxy-authorization|cookie|openai-organization|openai-project)$/i;

const exchangeSchema = z.object({
  hash: z.string(),
  role: z.string(),
  step: z.string(),
  method: z.string(),
  path: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
  request: z.unknown(),
  response: z
    .object({ status: z.number().int(), statusText: z.string(), contentType: z.string(), body: z.string() })
    .optional(),
  failure: z.string().optional(),
});
type Exchange = z.infer<typeof exchangeSchema>;

/** Records every exchange into `directory` (created if needed), keys and auth headers redacted. */
export function recordCassette(directory: string): Cassette {
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, cassetteFileName);
  let step = "start";
  let exchanges = 0;
  const write = (exchange: Exchange) => {
    // Appended synchronously, one line at a time: a run that crashes keeps every exchange it completed.
    appendFileSync(file, `${JSON.stringify(exchange)}\n`);
    exchanges++;
  };
  return {
    mode: "record",
    directory,
    setStep: (next) => {
      step = next;
    },
    get exchanges() {
      return exchanges;
    },
    fetchFor:
      (role, base) =>
      async (input, init = {}) => {
        const request = describeRequest(input, init);
        const at = step;
        const common = {
          hash: request.hash,
          role,
          step: at,
          method: request.method,
          path: request.path,
          headers: recordedHeaders(init.headers),
          request: redactValue(request.json ?? request.body),
        };
        let response: Response;
        try {
          response = await base(input, init);
        } catch (error) {
          write({
            ...common,
            failure: redactSecrets(error instanceof Error ? error.message : String(error)),
          });
          throw error;
        }
        // The whole body is read here (a stream too): what the run received is what the cassette holds.
        const body = await response.text();
        write({
          ...common,
          response: {
            status: response.status,
            statusText: response.statusText,
            contentType: response.headers.get("content-type") ?? "",
            body: redactSecrets(body),
          },
        });
        const headers = new Headers(response.headers);
        headers.delete("content-length");
        headers.delete("content-encoding");
        return new Response(body, { status: response.status, statusText: response.statusText, headers });
      },
  };
}

export interface ReplayOptions {
  /** Told of a request the cassette has no answer for (the run should stop: it is not the recorded run). */
  onMiss?: (error: TfgrpoError) => void;
}

/**
 * Serves a recorded cassette back: each request is matched by its hash; requests with the same hash get the recorded
 * answers in recorded order (a 500 then the retry's 200, or the G identical prompts of a group). Nothing is sent.
 * A request the recording does not hold is refused with a clear error naming the role and the run's step.
 */
export function replayCassette(directory: string, options: ReplayOptions = {}): Cassette {
  const file = path.join(directory, cassetteFileName);
  if (!existsSync(file)) {
    throw new TfgrpoError("invalid_input", `--replay ${directory}: no cassette there (${file} is missing)`, {
      details: { file },
    });
  }
  const queues = new Map<string, Exchange[]>();
  readUserTextSync(file, { what: "cassette" })
    .split("\n")
    .forEach((line, index) => {
      if (line.trim() === "") return;
      const parsed = safeParseJson(line, exchangeSchema);
      if (!parsed.success) {
        throw new TfgrpoError(
          "invalid_input",
          `${file}:${index + 1}: not a cassette exchange (${parsed.error})`,
          {
            details: { file, line: index + 1 },
          },
        );
      }
      const queue = queues.get(parsed.value.hash) ?? [];
      queue.push(parsed.value);
      queues.set(parsed.value.hash, queue);
    });
  let step = "start";
  let exchanges = 0;
  return {
    mode: "replay",
    directory,
    setStep: (next) => {
      step = next;
    },
    get exchanges() {
      return exchanges;
    },
    fetchFor:
      (role) =>
      async (input, init = {}) => {
        const request = describeRequest(input, init);
        const exchange = queues.get(request.hash)?.shift();
        if (!exchange) {
          const model = typeof request.json?.model === "string" ? `, model ${request.json.model}` : "";
          const error = new TfgrpoError(
            "invalid_input",
            `replay: the cassette in ${directory} has no answer for a request of role ${role} during ${step} (${request.method} ${request.path}${model}, request hash ${request.hash.slice(0, 12)}); this run asked something the recorded one did not (other options, data, code or run id)`,
            { details: { role, step, hash: request.hash, path: request.path } },
          );
          options.onMiss?.(error);
          throw error;
        }
        exchanges++;
        if (exchange.failure !== undefined || !exchange.response) {
          throw new TypeError(`replayed failure: ${exchange.failure ?? "no response was recorded"}`);
        }
        const { response } = exchange;
        return new Response(response.body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.contentType ? { "content-type": response.contentType } : {},
        });
      },
  };
}

function describeRequest(input: string | URL | Request, init: RequestInit) {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = (init.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  const body = typeof init.body === "string" ? init.body : "";
  const parsed = body === "" ? undefined : safeParseJson<Record<string, unknown>>(body);
  const json =
    parsed?.success && typeof parsed.value === "object" && parsed.value !== null ? parsed.value : undefined;
  return { method, path: url.pathname, body, json, hash: requestHash(method, url.pathname, body) };
}

function recordedHeaders(headers: RequestInit["headers"]): Record<string, string> {
  const recorded: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    recorded[name] = sensitiveHeaders.test(name) ? "[REDACTED]" : redactSecrets(value);
  });
  return recorded;
}
