import { mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// eventsource-parser (under the MCP SDK's HTTP client, which the online learner's acceptance test drives) has a
// "source" export condition pointing at .ts files that Node cannot load: let vite transform it instead. The AI SDK
// (the `learn --agent` acceptance test runs an AI SDK agent) reaches it through @ai-sdk/provider-utils, and
// @langchain/mcp-adapters (an agent on its attempt's MCP endpoint) through the MCP SDK.
export default mergeConfig(shared, {
  test: {
    server: {
      deps: {
        inline: [
          /@modelcontextprotocol\/sdk/,
          /eventsource/,
          /@ai-sdk\//,
          /node_modules\/ai\//,
          /@langchain\/mcp-adapters/,
        ],
      },
    },
  },
});
