import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { TfgrpoError } from "@tfgrpo/protocol";

/** Where a settings file came from, in the words the CLI prints. */
export type SettingsSource =
  | "--settings"
  | "TFGRPO_ACTOR_CONFIG"
  | "TFGRPO_CRITIC_CONFIG"
  | `beside ${string}`;

export interface FoundSettingsFile {
  file: string;
  source: SettingsSource;
}

export interface DomainSettings {
  actor?: FoundSettingsFile;
  critic?: FoundSettingsFile;
  /** One line for stderr: the files used and where from, and what lost to them; undefined when none is used. */
  line?: string;
}

export interface FindDomainSettingsOptions {
  domain: string;
  /** `--settings PATH`: a folder written by `data import` (its `<domain>.yaml`, `<domain>.critic.yaml`) or a file. */
  settings?: string;
  /** The task files the command reads, with their option (`--data`, `--train`): settings are looked for beside them. */
  dataFiles: ReadonlyArray<{ option: string; file: string }>;
  env?: NodeJS.ProcessEnv;
}

// What imports write. JSON is not looked for: `math.json` beside tasks is as likely a lesson bank as settings.
const extensions = [".yaml", ".yml"];

/** `<base>.yaml` (or .yml) in `directory`, if there is one. */
function settingsFileIn(directory: string, base: string): string | undefined {
  return extensions.map((extension) => path.join(directory, `${base}${extension}`)).find(isFile);
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The actor and critic settings files of a folder, as `data import` names them for a domain. */
function settingsInFolder(directory: string, domain: string): { actor?: string; critic?: string } {
  const actor = settingsFileIn(directory, domain);
  const critic = settingsFileIn(directory, `${domain}.critic`);
  return { ...(actor ? { actor } : {}), ...(critic ? { critic } : {}) };
}

/** `--settings PATH`: a folder, or one file with its partner beside it (`X.yaml` and `X.critic.yaml`). */
function fromSettingsOption(given: string, domain: string): { actor?: string; critic?: string } {
  const resolved = path.resolve(given);
  if (!existsSync(resolved)) {
    throw new TfgrpoError("invalid_input", `--settings ${given}: no such file or folder`, {
      details: { field: "settings" },
    });
  }
  if (statSync(resolved).isDirectory()) {
    const found = settingsInFolder(resolved, domain);
    if (!found.actor && !found.critic) {
      throw new TfgrpoError(
        "invalid_input",
        `--settings ${given}: no ${domain}.yaml nor ${domain}.critic.yaml in this folder (the settings \`tfgrpo data import --preset\` writes for domain ${domain})`,
        { details: { field: "settings" } },
      );
    }
    return found;
  }
  const directory = path.dirname(resolved);
  const name = path.basename(resolved);
  const critic = /^(.*)\.critic\.(ya?ml|json)$/i.exec(name);
  if (critic) {
    const actor = settingsFileIn(directory, critic[1]!);
    return { critic: resolved, ...(actor ? { actor } : {}) };
  }
  const partner = settingsFileIn(directory, `${name.replace(/\.(ya?ml|json)$/i, "")}.critic`);
  return { actor: resolved, ...(partner ? { critic: partner } : {}) };
}

/**
 * The actor and critic settings files a `learn` or `eval` uses, per role: `--settings` first, then the environment
 * (`TFGRPO_ACTOR_CONFIG`, `TFGRPO_CRITIC_CONFIG`), then the files a preset import wrote beside the task file
 * (`<domain>.yaml`, `<domain>.critic.yaml` in the folder of `--data` / `--train`). What was used, and what lost,
 * is said in one line.
 */
export function findDomainSettings(options: FindDomainSettingsOptions): DomainSettings {
  const env = options.env ?? process.env;
  const flag = options.settings === undefined ? {} : fromSettingsOption(options.settings, options.domain);
  const beside: { actor?: FoundSettingsFile; critic?: FoundSettingsFile } = {};
  for (const { option, file } of options.dataFiles) {
    const found = settingsInFolder(path.dirname(path.resolve(file)), options.domain);
    const source: SettingsSource = `beside ${option}`;
    if (found.actor && !beside.actor) beside.actor = { file: found.actor, source };
    if (found.critic && !beside.critic) beside.critic = { file: found.critic, source };
  }
  const result: DomainSettings = {};
  const parts: string[] = [];
  for (const [role, variable] of [
    ["actor", "TFGRPO_ACTOR_CONFIG"],
    ["critic", "TFGRPO_CRITIC_CONFIG"],
  ] as const) {
    const candidates: FoundSettingsFile[] = [];
    if (flag[role]) candidates.push({ file: flag[role], source: "--settings" });
    if (env[variable]) candidates.push({ file: path.resolve(env[variable]), source: variable });
    if (beside[role]) candidates.push(beside[role]);
    const [chosen, ...passed] = candidates;
    if (!chosen) continue;
    result[role] = chosen;
    const over = passed.filter((other) => other.file !== chosen.file);
    parts.push(
      `${role} ${chosen.file} (${chosen.source}${over.length > 0 ? `, over ${over.map((other) => `${other.file} ${other.source}`).join(" and ")}` : ""})`,
    );
  }
  if (parts.length > 0) result.line = `settings of ${options.domain}: ${parts.join("; ")}`;
  return result;
}
