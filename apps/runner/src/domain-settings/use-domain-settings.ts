import type { Task } from "@tfgrpo/protocol";
import { loadActorSettings } from "../roles/actor.js";
import { loadCriticSettings } from "../roles/critic.js";
import { checkDomainRequirements } from "./check-domain-requirements.js";
import { findDomainSettings } from "./find-domain-settings.js";

export interface UseDomainSettingsOptions {
  domain: string;
  /** `--settings PATH`. */
  settings?: string;
  dataFiles: ReadonlyArray<{ option: string; file: string }>;
  /** The tasks about to run (their `meta.requires`). */
  tasks: readonly Task[];
  /** Roles this process hosts: the settings of a role that runs elsewhere are that worker's business. */
  localRoles: readonly string[];
  mode: "tools" | "direct";
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** The settings files the roles of this process are started with. */
export interface RoleSettingsFiles {
  actor?: string;
  critic?: string;
}

/**
 * The settings of a `learn` or `eval`, before anything starts: found (`--settings`, the environment, beside the
 * task file), said in one line, loaded (a broken file is refused here) and checked against what the domain's tasks
 * need, so a domain without its tools or reward is refused before the first rollout.
 */
export async function useDomainSettings(options: UseDomainSettingsOptions): Promise<RoleSettingsFiles> {
  const found = findDomainSettings({
    domain: options.domain,
    ...(options.settings !== undefined ? { settings: options.settings } : {}),
    dataFiles: options.dataFiles,
    ...(options.env ? { env: options.env } : {}),
  });
  if (found.line) options.log(found.line);
  // A team's agent (`--agent`) gets its attempts' environments from the same actor settings: checked alike.
  const actorLocal = options.localRoles.includes("actor");
  const criticLocal = options.localRoles.includes("critic");
  checkDomainRequirements({
    domain: options.domain,
    tasks: options.tasks,
    mode: options.mode,
    ...(actorLocal
      ? {
          actor: {
            settings: found.actor ? await loadActorSettings(found.actor.file) : {},
            ...(found.actor ? { file: found.actor } : {}),
          },
        }
      : {}),
    ...(criticLocal
      ? {
          critic: {
            settings: found.critic ? await loadCriticSettings(found.critic.file) : {},
            ...(found.critic ? { file: found.critic } : {}),
          },
        }
      : {}),
  });
  return {
    ...(found.actor ? { actor: found.actor.file } : {}),
    ...(found.critic ? { critic: found.critic.file } : {}),
  };
}
