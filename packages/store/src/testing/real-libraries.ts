import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace checkout (this file lives in packages/store/{src,dist}/testing). */
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/**
 * Path of a real experience library learned by DeepSeek with the paper's reference implementation
 * (`../shared/data/youtu-agent-libraries/{math,web}.json`, plain `{"G0": "text"}` form). Fails loudly when the shared
 * data is missing rather than letting a test pass without it; TFGRPO_SHARED_DATA points elsewhere.
 */
export function realLibraryPath(name: "math" | "web"): string {
  const roots = [
    process.env.TFGRPO_SHARED_DATA,
    path.resolve(repositoryRoot, "../shared/data"),
    "/work/shared/data",
  ];
  for (const root of roots) {
    if (!root) continue;
    const file = path.join(root, "youtu-agent-libraries", `${name}.json`);
    if (existsSync(file)) return file;
  }
  throw new Error(
    `real library ${name}.json not found under ${roots.filter(Boolean).join(" or ")}/youtu-agent-libraries ` +
      "(set TFGRPO_SHARED_DATA to the shared data directory)",
  );
}
