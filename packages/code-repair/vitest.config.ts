import { mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// eventsource-parser (under the MCP SDK's HTTP client) has a "source" export condition pointing at .ts files that
// Node cannot load: let vite transform it (and the SDK that imports it) instead of handing them to Node.
export default mergeConfig(shared, {
  test: { server: { deps: { inline: [/@modelcontextprotocol\/sdk/, /eventsource/] } } },
});
