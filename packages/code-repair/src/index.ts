export {
  createRepairMcpServer,
  environmentResetTool,
  environmentStateTool,
  type RepairMcpServerOptions,
} from "./mcp/create-repair-mcp-server.js";
export {
  type RepairMcpHttpHandle,
  type RepairMcpHttpOptions,
  type RepairMcpOptions,
  serveRepairMcpHttp,
  serveRepairMcpStdio,
} from "./mcp/serve-repair-mcp.js";
export { createProgramCatalog, type ProgramCatalog } from "./program/program-catalog.js";
export {
  type CaseScope,
  casesOf,
  listQuixbugsPrograms,
  loadQuixbugsProgram,
  quixbugsLayout,
  type RepairProgram,
  testFilesOf,
  visibleCountOf,
} from "./program/quixbugs-program.js";
export { codeRepairDomain, programOf, repairQuestion, toRepairTask } from "./repair-task.js";
export { checkReference, type ReferenceCheck } from "./reward/reference-check.js";
export {
  createRepairReward,
  finalFileOf,
  type RepairRewardResult,
  type RepairTrajectoryView,
} from "./reward/repair-reward.js";
export {
  type CaseOutcome,
  type CaseResult,
  type CaseRun,
  caseRunText,
  createRepairSandbox,
  type RepairSandbox,
  type RepairSandboxOptions,
} from "./sandbox/repair-sandbox.js";
export {
  createRepairWorkspace,
  type RepairState,
  type RepairWorkspace,
} from "./workspace/repair-workspace.js";
