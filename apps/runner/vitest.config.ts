import { mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// eventsource-parser (under the MCP SDK's HTTP client, which the online learner's acceptance test drives) has a
// "source" export condition pointing at .ts files that Node cannot load: let vite transform it instead.
export default mergeConfig(shared, {
  test: { server: { deps: { inline: [/@modelcontextprotocol\/sdk/, /eventsource/] } } },
});
