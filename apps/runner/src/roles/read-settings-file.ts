import { readFile } from "node:fs/promises";
import { safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { parse as parseYaml } from "yaml";

/**
 * Reads a role's optional settings file (`TFGRPO_<ROLE>_CONFIG`): JSON by extension, YAML otherwise. Returns the
 * parsed value for the role's own schema to validate; every failure names the file.
 */
export async function readSettingsFile(file: string, role: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new TfgrpoError(
      "invalid_config",
      `cannot read ${role} settings ${file}: ${(error as Error).message}`,
      {
        details: { file },
      },
    );
  }
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
