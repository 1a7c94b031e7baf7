import { existsSync } from "node:fs";
import { readUserText, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { packageAsset } from "../runtime/package-asset.js";

/**
 * The two real libraries vendored in the repository (test-data/youtu-agent-libraries: learned by DeepSeek with the
 * paper's reference implementation, MIT; see test-data/README.md), read as the "other domain" control of
 * `eval --controls` when the database has no library of another domain to use.
 */
export type VendoredLibraryName = "math" | "web";

/** Found from the package (an installed one has it under dist/assets), so it works from any working directory. */
export function vendoredLibraryFile(name: VendoredLibraryName): string {
  return packageAsset(`test-data/youtu-agent-libraries/${name}.json`);
}

/** The vendored library of the other domain: web's for any domain but web, math's for web. */
export function otherVendoredLibrary(domain: string): VendoredLibraryName {
  return domain === "web" ? "math" : "web";
}

/** A vendored `{"G0": "text", ...}` library as entries in file order; a clear error when missing or malformed. */
export async function readVendoredLibrary(
  name: VendoredLibraryName,
): Promise<{ file: string; entries: { id: string; text: string }[] }> {
  const file = vendoredLibraryFile(name);
  if (!existsSync(file)) {
    throw new TfgrpoError(
      "not_found",
      `the vendored ${name} library is missing at ${file} (test-data/youtu-agent-libraries); pass --control-domain D to use a library of the database instead`,
    );
  }
  const parsed = safeParseJson(
    await readUserText(file, { what: `the vendored ${name} library`, code: "not_found" }),
  );
  const value = parsed.success ? parsed.value : null;
  if (
    typeof value !== "object" ||
    value === null ||
    Array.isArray(value) ||
    !Object.entries(value).every(([id, text]) => /^G\d+$/.test(id) && typeof text === "string" && text.trim())
  ) {
    throw new TfgrpoError("invalid_input", `${file} is not a {"G0": "text", ...} library`);
  }
  return {
    file,
    entries: Object.entries(value as Record<string, string>).map(([id, text]) => ({ id, text: text.trim() })),
  };
}
