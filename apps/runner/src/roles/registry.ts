import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Cassette } from "@tfgrpo/models";
import { type Bus, type RoleDefinition, TfgrpoError } from "@tfgrpo/protocol";
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

const roles = new Map<string, RoleFactory>();
const rolePattern = /^[a-z][a-z0-9-]*$/;
const rolesDirectory = path.dirname(fileURLToPath(import.meta.url));

/**
 * Makes a role servable by `tfgrpo serve --role <name>`. A role lives in its own file under apps/runner/src/roles/
 * (best named `<name>.ts`) that calls this when imported.
 */
export function registerRole(name: string, factory: RoleFactory): void {
  if (!rolePattern.test(name)) {
    throw new TfgrpoError("invalid_input", `role name "${name}" must be lower-case letters, digits and "-"`);
  }
  const existing = roles.get(name);
  if (existing && existing !== factory) {
    throw new TfgrpoError("conflict", `role "${name}" is registered twice`, { details: { role: name } });
  }
  roles.set(name, factory);
}

/** Role modules beside this file: every .ts/.js file but the registry itself, tests and declarations. */
function roleModules(): string[] {
  return readdirSync(rolesDirectory)
    .filter((file) => /\.(ts|js)$/.test(file) && !/\.(test|int\.test|d)\.(ts|js)$/.test(file))
    .filter((file) => !file.startsWith("registry."))
    .map((file) => path.join(rolesDirectory, file));
}

/** Role modules that failed to import, by file name, so an "unknown role" error can say why a role is missing. */
const brokenModules = new Map<string, string>();

async function importRoleModules(files: readonly string[]): Promise<void> {
  for (const file of files) {
    try {
      await import(pathToFileURL(file).href);
    } catch (error) {
      brokenModules.set(path.basename(file), (error as Error).message);
    }
  }
}

/** Names of the roles that can be served (imports every role module to find out). */
export async function knownRoles(): Promise<string[]> {
  await importRoleModules(roleModules());
  return [...roles.keys()].sort();
}

/**
 * The factory of a role: already registered, else from `roles/<name>.ts` (so serving one role does not load the
 * others' dependencies), else from any role module. An unknown name lists the roles there are.
 */
export async function loadRole(name: string): Promise<RoleFactory> {
  const registered = roles.get(name);
  if (registered) return registered;
  // The name becomes a file path only once it is known to be a plain role name.
  const file = rolePattern.test(name)
    ? [".ts", ".js"].map((extension) => path.join(rolesDirectory, `${name}${extension}`)).find(existsSync)
    : undefined;
  // The role's own module: an error importing it is the answer, not a reason to look elsewhere.
  if (file) await import(pathToFileURL(file).href);
  const own = roles.get(name);
  if (own) return own;
  const known = await knownRoles();
  const found = roles.get(name);
  if (found) return found;
  const broken = [...brokenModules].map(([module, message]) => `${module} (${message})`);
  throw new TfgrpoError(
    "not_found",
    `unknown role "${name}"; known roles: ${known.length > 0 ? known.join(", ") : "(none registered yet)"}` +
      (broken.length > 0 ? `; role modules that failed to load: ${broken.join("; ")}` : ""),
    { details: { role: name, known } },
  );
}
