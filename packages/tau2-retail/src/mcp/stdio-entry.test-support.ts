// A stdio retail MCP server over the repo's copy of the real database, for tests that spawn one per attempt.
import { realRetailDb } from "../retail-fixture.test-support.js";
import { serveRetailMcpStdio } from "./serve-retail-mcp.js";

const handle = await serveRetailMcpStdio({ initial: realRetailDb() });
await handle.closed;
process.exit(0);
