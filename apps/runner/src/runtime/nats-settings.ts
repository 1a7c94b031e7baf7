import { TfgrpoError } from "@tfgrpo/protocol";
import type { CreateBusOptions } from "./create-bus.js";

/** Shortest ack wait accepted: heartbeats go every third of it, so much less would redeliver healthy jobs. */
const minimumAckWaitMs = 300;

/**
 * NATS Bus settings the CLI takes from the environment (`learn`, `eval` and `serve` alike, so a runner and its workers
 * agree): `TFGRPO_NATS_ACK_WAIT_MS`, how long a job (or a result) may go without an ack or heartbeat before it is
 * redelivered. Unset: the Bus's default (30 s). Tests shorten it so a killed worker's jobs come back quickly.
 */
export function natsSettingsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Pick<CreateBusOptions, "ackWaitMs"> {
  const raw = env.TFGRPO_NATS_ACK_WAIT_MS?.trim();
  if (!raw) return {};
  const ackWaitMs = Number(raw);
  if (!Number.isInteger(ackWaitMs) || ackWaitMs < minimumAckWaitMs) {
    throw new TfgrpoError(
      "invalid_config",
      `TFGRPO_NATS_ACK_WAIT_MS must be a whole number of milliseconds >= ${minimumAckWaitMs}, got ${JSON.stringify(raw)}`,
      { details: { field: "TFGRPO_NATS_ACK_WAIT_MS", value: raw } },
    );
  }
  return { ackWaitMs };
}
