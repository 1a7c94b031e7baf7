export type { BusLogger } from "./bus-logger.js";
export { isRetryableJobError } from "./job-retry-policy.js";
export { createNatsBus, type NatsBusOptions } from "./nats-bus.js";
