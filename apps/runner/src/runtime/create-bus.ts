import { createNatsBus, type NatsBusOptions } from "@tfgrpo/bus-nats";
import { type Bus, createInProcessBus } from "@tfgrpo/protocol";

export interface CreateBusOptions extends Partial<Omit<NatsBusOptions, "servers">> {
  /** NATS server URL(s), as given to `--nats` (comma-separated or a list). Absent or empty: the in-process Bus. */
  nats?: string | string[] | undefined;
}

/** The Bus a command asked for: over NATS when given a URL, otherwise in-process (everything in this process). */
export async function createBus(options: CreateBusOptions = {}): Promise<Bus> {
  const { nats, ...natsOptions } = options;
  const servers = typeof nats === "string" ? nats.split(",").map((url) => url.trim()) : (nats ?? []);
  const nonEmpty = servers.filter((url) => url.length > 0);
  if (nonEmpty.length === 0) return createInProcessBus();
  return createNatsBus({ ...natsOptions, servers: nonEmpty });
}
