import type { Cassette } from "@tfgrpo/models";
import {
  type Bus,
  defineRole,
  type Handle,
  type LibrarySnapshot,
  libraryGet,
  servedLibrarySnapshot,
} from "@tfgrpo/protocol";
import { createStore, type Store } from "@tfgrpo/store";
import { loadRole, type RoleInstance } from "../roles/registry.js";
import { createBus } from "./create-bus.js";
import { natsSettingsFromEnv } from "./nats-settings.js";

export interface RuntimeOptions {
  /** Workspace database (file path or sqlite:// URL). */
  db: string;
  /** NATS URL(s): the graph dispatches over NATS; without it everything runs in this process. */
  nats?: string;
  /** models.yaml for the roles this process runs. */
  config?: string;
  /** Roles started in this process: all three by default; over NATS a user may leave some to remote workers. */
  localRoles: readonly string[];
  concurrency: number;
  log: (line: string) => void;
  /** Records or replays the model traffic of the roles this process hosts (`--record` / `--replay`). */
  cassette?: Cassette;
  /** The team's agent module (`--agent`): the actor role this process hosts runs it. */
  agent?: string;
  /** Settings files of the roles this process hosts, in place of `TFGRPO_ACTOR_CONFIG` / `TFGRPO_CRITIC_CONFIG`. */
  settings?: { actor?: string; critic?: string };
  /** Wraps the Bus every call of this process goes through (tests record what the messages carry). */
  wrapBus?: (bus: Bus) => Bus;
}

export interface Runtime extends AsyncDisposable {
  bus: Bus;
  store: Store;
  /**
   * Serves a library snapshot that is not in the store (the placebo libraries of `eval --controls`): actors read it
   * over the Bus like any version, nothing is written, `library list` never shows it. Returns its withdrawal.
   */
  serveLibrary(snapshot: LibrarySnapshot): () => void;
  close(): Promise<void>;
}

/**
 * The process a command runs in: the store, the Bus, the served reads (`tfgrpo.library.get` for actors and the
 * critic, `tfgrpo.trajectory.get` for the critic: served here because this process owns the database) and the roles
 * it hosts itself.
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const store = await createStore(options.db);
  const opened: { roles: RoleInstance[]; handles: Handle[] } = { roles: [], handles: [] };
  let bus: Bus | undefined;
  const served = new Map<string, LibrarySnapshot>();
  const close = async () => {
    for (const handle of opened.handles.reverse()) await handle.close();
    for (const role of opened.roles.reverse()) await role.close();
    await bus?.close();
    await store.close();
  };
  try {
    bus = await createBus({
      nats: options.nats,
      name: `tfgrpo runner ${process.pid}`,
      ...(options.nats ? natsSettingsFromEnv() : {}),
    });
    if (options.wrapBus) bus = options.wrapBus(bus);
    // Only the read: the library service (experiences, outcome) is `tfgrpo serve --role library`.
    const library = defineRole(
      "library",
      {
        get: async ({ domain, version }) => {
          const extra = served.get(`${domain}@${version}`);
          if (extra) return extra;
          return servedLibrarySnapshot(
            version === "head" ? await store.getHead(domain) : await store.getVersion(domain, version),
          );
        },
      },
      { subjects: { get: libraryGet } },
    );
    opened.handles.push(await library.serve(bus));
    const trajectory = defineRole("trajectory", {
      get: async ({ ids }) => {
        const byId = new Map((await store.listTrajectories({ ids })).map((t) => [t.id, t]));
        return { trajectories: ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])) };
      },
    });
    opened.handles.push(await trajectory.serve(bus));
    for (const name of options.localRoles) {
      const factory = await loadRole(name);
      const role = await factory({
        bus,
        concurrency: options.concurrency,
        db: options.db,
        log: options.log,
        ...(options.config ? { config: options.config } : {}),
        ...(options.cassette ? { cassette: options.cassette } : {}),
        ...(options.agent ? { agent: options.agent } : {}),
        ...(options.settings ? { settings: options.settings } : {}),
      });
      opened.roles.push(role);
      opened.handles.push(await role.serve(bus, { concurrency: options.concurrency }));
    }
  } catch (error) {
    await close();
    throw error;
  }
  const serveLibrary = (snapshot: LibrarySnapshot) => {
    const keys = [`${snapshot.domain}@${snapshot.version}`, `${snapshot.domain}@head`];
    for (const key of keys) served.set(key, snapshot);
    return () => {
      for (const key of keys) if (served.get(key) === snapshot) served.delete(key);
    };
  };
  return { bus, store, serveLibrary, close, [Symbol.asyncDispose]: close };
}
