import { mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// eventsource-parser (under the MCP SDK that @tfgrpo/code-repair's tests load) has a "source" export condition
// pointing at .ts files that Node cannot load: let vite transform it (and the SDK that imports it) instead.
export default mergeConfig(shared, {
  test: { server: { deps: { inline: [/@modelcontextprotocol\/sdk/, /eventsource/] } } },
});
