import { TfgrpoError } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { natsSettingsFromEnv } from "./nats-settings.js";

describe("natsSettingsFromEnv", () => {
  it("leaves the Bus's defaults alone when TFGRPO_NATS_ACK_WAIT_MS is unset or empty", () => {
    expect(natsSettingsFromEnv({})).toEqual({});
    expect(natsSettingsFromEnv({ TFGRPO_NATS_ACK_WAIT_MS: " " })).toEqual({});
  });

  it("reads the ack wait in milliseconds", () => {
    expect(natsSettingsFromEnv({ TFGRPO_NATS_ACK_WAIT_MS: "5000" })).toEqual({ ackWaitMs: 5000 });
  });

  it.each(["5s", "-1", "0", "299", "1.5e3x", "1500.5"])("rejects %j, naming the variable", (value) => {
    expect(() => natsSettingsFromEnv({ TFGRPO_NATS_ACK_WAIT_MS: value })).toThrow(TfgrpoError);
    expect(() => natsSettingsFromEnv({ TFGRPO_NATS_ACK_WAIT_MS: value })).toThrow(/TFGRPO_NATS_ACK_WAIT_MS/);
  });
});
