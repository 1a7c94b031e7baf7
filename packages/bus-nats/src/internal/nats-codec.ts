import { promisify } from "node:util";
import { gunzip as gunzipCallback, gzip as gzipCallback } from "node:zlib";
import type { MsgHdrs } from "@nats-io/transport-node";
import { type SafeParseResult, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";

const gzip = promisify(gzipCallback);
const gunzip = promisify(gunzipCallback);

export const headerNames = {
  encoding: "Tfgrpo-Encoding",
  jobId: "Tfgrpo-Job-Id",
  replyTo: "Tfgrpo-Reply-To",
  timeoutMs: "Tfgrpo-Timeout-Ms",
  /** A request's id: the same on every resend, so a handler answers a repeated request once. */
  requestId: "Tfgrpo-Request-Id",
  /** The sending connection (name and client id), for a handler's per-caller limits. */
  caller: "Tfgrpo-Caller",
} as const;

/**
 * Bus payloads are JSON. Trajectories run to hundreds of kilobytes of very repetitive text, so anything above this
 * size is gzip-compressed (typically 5-10x), which keeps most of them far below the server's max_payload (1 MB by
 * default) without chunking.
 */
export const compressAboveBytes = 16 * 1024;

export const serializedErrorSchema = z.object({
  name: z.string(),
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/** What a request handler sends back: the output, or the error it threw. */
export const replyEnvelopeSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), output: z.unknown() }),
  z.object({ ok: z.literal(false), error: serializedErrorSchema }),
]);
export type ReplyEnvelope = z.infer<typeof replyEnvelopeSchema>;

/** A JobResult as stored in the results stream (output validated separately, with the subject's schema). */
export const resultEnvelopeSchema = z.discriminatedUnion("ok", [
  z.object({
    jobId: z.string(),
    ok: z.literal(true),
    output: z.unknown(),
    attempt: z.number().int().positive(),
  }),
  z.object({
    jobId: z.string(),
    ok: z.literal(false),
    error: serializedErrorSchema,
    attempt: z.number().int().positive(),
  }),
]);

/** JSON-encodes a value, compressing it (and saying so in a header) when it is large. */
export async function encodePayload(value: unknown, headers: MsgHdrs): Promise<Uint8Array> {
  const json = Buffer.from(JSON.stringify(value) ?? "null", "utf8");
  if (json.length < compressAboveBytes) return json;
  headers.set(headerNames.encoding, "gzip");
  return gzip(json);
}

/** The inverse of encodePayload; never throws: a corrupt or foreign payload is a failed result with a reason. */
export async function decodePayload(
  data: Uint8Array,
  headers: MsgHdrs | undefined,
): Promise<SafeParseResult<unknown>> {
  const encoding = headers?.get(headerNames.encoding) ?? "";
  let bytes = data;
  if (encoding === "gzip") {
    try {
      bytes = await gunzip(data);
    } catch (error) {
      return { success: false, error: `invalid gzip payload: ${(error as Error).message}` };
    }
  } else if (encoding !== "") {
    return { success: false, error: `unknown ${headerNames.encoding} "${encoding}"` };
  }
  return safeParseJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"));
}

/** Bytes the headers take on the wire (NATS/1.0 line, "Key: value" lines, blank line), for the size check. */
export function headerBytes(headers: MsgHdrs): number {
  let size = "NATS/1.0\r\n\r\n".length;
  for (const key of headers.keys()) {
    for (const value of headers.values(key)) size += key.length + 2 + Buffer.byteLength(value) + 2;
  }
  return size;
}

/**
 * Fails with a clear message instead of letting the server drop the connection or the client throw a bare
 * "payload too large". `what` names the message (subject, job id).
 */
export function checkPayloadSize(what: string, data: Uint8Array, headers: MsgHdrs, maxPayload: number): void {
  const size = data.length + headerBytes(headers);
  if (size <= maxPayload) return;
  const compressed = headers.get(headerNames.encoding) === "gzip" ? " after gzip compression" : "";
  throw new TfgrpoError(
    "invalid_input",
    `${what}: message is ${size} bytes${compressed}, over the NATS server's max_payload of ${maxPayload} bytes ` +
      `(raise max_payload in the nats-server config, up to 64 MB, or send less)`,
    { details: { size, maxPayload } },
  );
}
