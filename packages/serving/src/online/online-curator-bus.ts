import { type CuratorConfigInput, createCurator, createCuratorRole } from "@tfgrpo/curator";
import type { Models } from "@tfgrpo/models";
import { type Bus, createInProcessBus } from "@tfgrpo/protocol";
import type { LibraryStore } from "@tfgrpo/store";
import { onlineCuratorConfig } from "./online-curator-config.js";

/**
 * A Bus with the curator role on it, for a learner given no Bus of its own (a one-off `online --tasks` session, a
 * test): the same curator requests as over NATS, answered in this process with the online curator settings
 * (`onlineCuratorConfig`). `ready` resolves once the role is subscribed.
 */
export function createOnlineCuratorBus(options: {
  store: LibraryStore;
  models: Pick<Models, "structured" | "embed">;
  curator?: CuratorConfigInput;
}): { bus: Bus; ready: Promise<unknown> } {
  const bus = createInProcessBus();
  const curator = createCurator({
    store: options.store,
    models: options.models,
    config: onlineCuratorConfig(options.curator),
  });
  return { bus, ready: createCuratorRole(curator).serve(bus) };
}
