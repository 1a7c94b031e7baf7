export { meansOnlyGate } from "./means-only-gate.js";
export { type SimLearnRun, simLearnArgs } from "./sim-learn-args.js";
export {
  type CliOptions,
  repositoryRoot,
  runCli,
  type SpawnedCli,
  spawnCli,
  waitForStderr,
} from "./spawn-cli.js";
export { type RoleWorker, type StartRoleWorkerOptions, startRoleWorker } from "./start-role-worker.js";
