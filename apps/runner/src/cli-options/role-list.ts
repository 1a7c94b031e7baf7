/** `--local-roles actor, critic` -> ["actor", "critic"]. */
export function parseRoleList(value: string): string[] {
  return value
    .split(",")
    .map((role) => role.trim())
    .filter(Boolean);
}
