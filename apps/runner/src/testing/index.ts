export { type EvalJsonRow, evalJsonRows } from "./eval-json-rows.js";
export { type LearnRun, learnArgs } from "./learn-args.js";
export { meansOnlyGate } from "./means-only-gate.js";
export { type SimEvalRun, simEvalArgs } from "./sim-eval-args.js";
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
export { type SimSuites, writeSimSuites } from "./write-sim-suites.js";
