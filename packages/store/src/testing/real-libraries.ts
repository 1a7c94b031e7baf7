import { realLibraryFile } from "@tfgrpo/protocol/testing";

/**
 * Path of a real experience library learned by DeepSeek with the paper's reference implementation, vendored in the
 * repository (`test-data/youtu-agent-libraries/{math,web}.json`, plain `{"G0": "text"}` form). Same as
 * `realLibraryFile` from `@tfgrpo/protocol/testing`, kept under this name for the store's importers.
 */
export function realLibraryPath(name: "math" | "web"): string {
  return realLibraryFile(name);
}
