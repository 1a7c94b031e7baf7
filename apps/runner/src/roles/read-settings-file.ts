import { readUserText, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { parse as parseYaml } from "yaml";

/**
 * Reads a role's optional settings file (`TFGRPO_<ROLE>_CONFIG`): JSON by extension, YAML otherwise. Returns the
 * parsed value for the role's own schema to validate; every failure names the file.
 */
export async function readSettingsFile(file: string, role: string): Promise<unknown> {
  const text = await readUserText(file, { what: `${role} settings`, code: "invalid_config" });
  if (/\.json$/i.test(file)) {
    const parsed = safeParseJson(text);
    if (!parsed.success)
      throw new TfgrpoError("invalid_config", `${file}: ${parsed.error}`, { details: { file } });
    return parsed.value;
  }
  try {
    return parseYaml(text);
  } catch (error) {
    throw new TfgrpoError("invalid_config", `${file}: invalid YAML: ${(error as Error).message}`, {
      details: { file },
    });
  }
}
