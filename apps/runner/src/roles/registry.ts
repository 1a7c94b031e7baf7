import { TfgrpoError } from "@tfgrpo/protocol";
import type { RoleFactory } from "./role-factory.js";

export type { RoleFactory, RoleInstance, RoleOptions } from "./role-factory.js";

/**
 * The roles tfgrpo ships, by name: each is imported only when asked for, so serving one role does not load the
 * others' dependencies. A new role is a file under apps/runner/src/roles/ exporting its factory, and a line here.
 */
const builtInRoles: Record<string, () => Promise<RoleFactory>> = {
  actor: async () => (await import("./actor.js")).actorRole,
  critic: async () => (await import("./critic.js")).criticRole,
  curator: async () => (await import("./curator.js")).curatorRole,
  library: async () => (await import("./library.js")).libraryRole,
};

/** Roles registered at run time (`tfgrpo serve --module FILE` imports modules that call `registerRole`). */
const registered = new Map<string, RoleFactory>();
const rolePattern = /^[a-z][a-z0-9-]*$/;

/** Makes a role servable by `tfgrpo serve --role <name>` beside the built-in ones (for `serve --module`). */
export function registerRole(name: string, factory: RoleFactory): void {
  if (!rolePattern.test(name)) {
    throw new TfgrpoError("invalid_input", `role name "${name}" must be lower-case letters, digits and "-"`);
  }
  const existing = registered.get(name);
  if (Object.hasOwn(builtInRoles, name) || (existing && existing !== factory)) {
    throw new TfgrpoError("conflict", `role "${name}" is registered twice`, { details: { role: name } });
  }
  registered.set(name, factory);
}

/** Names of the roles that can be served: the built-in ones and those registered. */
export async function knownRoles(): Promise<string[]> {
  return [...new Set([...Object.keys(builtInRoles), ...registered.keys()])].sort();
}

/** The factory of a role; an unknown name lists the roles there are. */
export async function loadRole(name: string): Promise<RoleFactory> {
  const registeredFactory = registered.get(name);
  if (registeredFactory) return registeredFactory;
  if (Object.hasOwn(builtInRoles, name)) return builtInRoles[name]!();
  const known = await knownRoles();
  throw new TfgrpoError("not_found", `unknown role "${name}"; known roles: ${known.join(", ")}`, {
    details: { role: name, known },
  });
}
