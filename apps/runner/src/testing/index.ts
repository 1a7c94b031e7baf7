export { repositoryRoot, runCli, type SpawnedCli, spawnCli } from "./spawn-cli.js";
