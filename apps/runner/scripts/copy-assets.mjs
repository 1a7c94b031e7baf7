// Copies the repository files the CLI reads at run time into dist/assets, at their repository paths, so an installed
// `tfgrpo` package has them (src/runtime/package-asset.ts looks there first). Runs after tsc in `build`.
import { cpSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repositoryRoot = path.resolve(packageRoot, "../..");
const assets = path.join(packageRoot, "dist", "assets");

/** Every file `packageAsset(...)` is asked for. */
const runtimeAssets = [
  // The SIMULATED world's models config: `--sim`, `tfgrpo demo`, `tfgrpo solve` without a config.
  "examples/models.sim.yaml",
  // The other-domain control of `eval --controls` (real libraries, MIT; see test-data/README.md).
  "test-data/youtu-agent-libraries/math.json",
  "test-data/youtu-agent-libraries/web.json",
  "test-data/README.md",
];

rmSync(assets, { recursive: true, force: true });
for (const file of runtimeAssets) cpSync(path.join(repositoryRoot, file), path.join(assets, file));
writeFileSync(
  path.join(assets, "README.md"),
  "Files of the tfgrpo repository that the CLI reads at run time, copied here by the build at their repository paths.\n",
);
