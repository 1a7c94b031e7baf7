import type { Cassette } from "@tfgrpo/models";
import type { Bus, RoleDefinition } from "@tfgrpo/protocol";
import type { ClientGateOptions } from "@tfgrpo/serving";

/** What `tfgrpo serve` gives a role factory. */
export interface RoleOptions {
  /** The Bus the role serves (NATS for `serve`); also the way to call other roles. */
  bus: Bus;
  /** `--concurrency`: calls or jobs per subject at once; undefined lets the role choose. */
  concurrency?: number;
  /** `--config`: the models config file (models.yaml), when given. */
  config?: string;
  /** `--db`: the workspace database, when given. */
  db?: string;
  /** One line of operator-facing output (stderr). */
  log: (line: string) => void;
  /** Records or replays this role's model traffic (`--record` / `--replay`). */
  cassette?: Cassette;
  /**
   * The settings files of `learn`/`eval` (`--settings`, found beside the tasks, or the environment's): they replace
   * `TFGRPO_ACTOR_CONFIG` / `TFGRPO_CRITIC_CONFIG` for the roles of this process.
   */
  settings?: { actor?: string; critic?: string };
  /** `--agent FILE`: the team's agent module, for the actor role (it runs the rollouts). */
  agent?: string;
  /** `--client-tokens`, `--rate-limit`, `--rate-burst`: for roles agents call (the library). */
  clientGate?: ClientGateOptions;
}

/**
 * A started role: its endpoints as `defineRole` gives them (the role package's `create<Role>Role`), and how to
 * release what it opened (models, database...).
 */
export interface RoleInstance extends RoleDefinition {
  close(): Promise<void>;
}

export type RoleFactory = (options: RoleOptions) => Promise<RoleInstance>;
