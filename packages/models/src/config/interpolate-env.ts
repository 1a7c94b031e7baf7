export type InterpolationResult = { ok: true; value: string } | { ok: false; missing: string[] };

/**
 * `${VAR}` and `${VAR:-default}` in a config string, so one file serves several machines (the sim's port,
 * a self-hosted endpoint). An unset or empty variable without a default is reported, never silently emptied.
 */
export function interpolateEnv(text: string, env: Record<string, string | undefined>): InterpolationResult {
  const missing: string[] = [];
  const value = text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_match, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && found !== "") return found;
      if (fallback !== undefined) return fallback;
      missing.push(name);
      return "";
    },
  );
  return missing.length > 0 ? { ok: false, missing } : { ok: true, value };
}
