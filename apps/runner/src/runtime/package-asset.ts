import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * A data file of the repository that the CLI reads at run time (`examples/models.sim.yaml`, the vendored libraries in
 * `test-data/`), by its path in the repository. The build copies each one to the same path under `dist/assets`
 * (apps/runner/scripts/copy-assets.mjs), which is what an installed package has; run from the sources, the file is
 * read where it lives in the repository.
 */
export function packageAsset(repositoryPath: string): string {
  const installed = fileURLToPath(new URL(`../assets/${repositoryPath}`, import.meta.url));
  if (existsSync(installed)) return installed;
  // From src/runtime or dist/runtime: up to apps/runner, then to the repository root.
  return fileURLToPath(new URL(`../../../../${repositoryPath}`, import.meta.url));
}
