export {
  createRetailMcpServer,
  environmentResetTool,
  environmentStateTool,
  type RetailMcpServerOptions,
} from "./mcp/create-retail-mcp-server.js";
export {
  type RetailMcpHttpHandle,
  type RetailMcpHttpOptions,
  serveRetailMcpHttp,
  serveRetailMcpStdio,
} from "./mcp/serve-retail-mcp.js";
export {
  copyRetailDb,
  loadRetailDb,
  parseRetailDb,
  type RetailDb,
  type RetailOrder,
  type RetailProduct,
  type RetailUser,
  retailDbSchema,
} from "./retail-db.js";
export { createRetailEnvironment, type RetailEnvironment } from "./retail-environment.js";
export {
  type GoldAction,
  type RetailGold,
  retailGoldOf,
  retailGoldSchema,
  retailQuestion,
  type Tau2Task,
  tau2RetailDomain,
  tau2TaskSchema,
  toRetailTask,
  userScenarioOf,
} from "./retail-task.js";
export { applyStateChanges, type StateChange } from "./reward/apply-state-changes.js";
export { canonicalJson, sameJson, stateHash } from "./reward/canonical-json.js";
export { type GoldReplay, replayGold } from "./reward/gold-state.js";
export {
  communicated,
  createRetailReward,
  type RetailRewardInput,
  type RetailRewardResult,
} from "./reward/retail-reward.js";
export {
  createRetailTrajectoryReward,
  type RetailTrajectoryReward,
  type RetailTrajectoryView,
} from "./reward/trajectory-reward.js";
export { calculate } from "./tools/calculate.js";
export { callRetailTool, isRetailWriteTool, type RetailToolOutcome } from "./tools/call-retail-tool.js";
export {
  type RetailToolKind,
  type RetailToolSpec,
  retailToolNames,
  retailToolSpecs,
} from "./tools/retail-tool-specs.js";
