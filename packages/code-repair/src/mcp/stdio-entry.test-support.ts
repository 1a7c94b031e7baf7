// A stdio code-repair MCP server over the repo's copy of QuixBugs, for tests that spawn one per attempt.
import { quixbugsDir } from "../quixbugs-fixture.test-support.js";
import { serveRepairMcpStdio } from "./serve-repair-mcp.js";

const handle = await serveRepairMcpStdio({ dataDir: quixbugsDir, sandbox: { caseTimeoutMs: 1000 } });
await handle.closed;
process.exit(0);
