export { type CliOptions, repositoryRoot, runCli, type SpawnedCli, spawnCli } from "./spawn-cli.js";
