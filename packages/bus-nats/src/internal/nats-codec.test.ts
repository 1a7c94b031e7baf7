import { headers } from "@nats-io/transport-node";
import { describe, expect, it } from "vitest";
import {
  checkPayloadSize,
  compressAboveBytes,
  decodePayload,
  encodePayload,
  headerNames,
} from "./nats-codec.js";

describe("NATS payload codec", () => {
  it("sends small payloads as plain JSON", async () => {
    const hdrs = headers();
    const data = await encodePayload({ n: 1 }, hdrs);
    expect(Buffer.from(data).toString()).toBe('{"n":1}');
    expect(hdrs.has(headerNames.encoding)).toBe(false);
    expect(await decodePayload(data, hdrs)).toEqual({ success: true, value: { n: 1 } });
  });

  it("gzips large payloads, says so in a header, and reads them back", async () => {
    const value = { text: "When counting integers in a closed range, include both endpoints. ".repeat(2000) };
    const hdrs = headers();
    const data = await encodePayload(value, hdrs);
    expect(JSON.stringify(value).length).toBeGreaterThan(compressAboveBytes);
    expect(data.length).toBeLessThan(JSON.stringify(value).length / 10);
    expect(hdrs.get(headerNames.encoding)).toBe("gzip");
    expect(await decodePayload(data, hdrs)).toEqual({ success: true, value });
  });

  it("reports corrupt or foreign payloads instead of throwing", async () => {
    const gzipped = headers();
    gzipped.set(headerNames.encoding, "gzip");
    expect(await decodePayload(Buffer.from("not gzip"), gzipped)).toMatchObject({ success: false });
    const unknown = headers();
    unknown.set(headerNames.encoding, "zstd");
    expect(await decodePayload(Buffer.from("{}"), unknown)).toEqual({
      success: false,
      error: 'unknown Tfgrpo-Encoding "zstd"',
    });
    expect(await decodePayload(Buffer.from("{oops"), undefined)).toMatchObject({ success: false });
  });

  it("names a message too large for the server, counting its headers", () => {
    const hdrs = headers();
    hdrs.set(headerNames.jobId, "job-1");
    expect(() => checkPayloadSize("tfgrpo.actor.rollout job job-1", new Uint8Array(990), hdrs, 1000)).toThrow(
      /tfgrpo\.actor\.rollout job job-1: message is \d+ bytes, over the NATS server's max_payload of 1000 bytes/,
    );
    expect(() => checkPayloadSize("small", new Uint8Array(900), hdrs, 1000)).not.toThrow();
  });
});
