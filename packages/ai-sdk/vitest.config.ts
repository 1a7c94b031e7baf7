import { defineConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// eventsource-parser (under the AI SDK) publishes a "source" export condition pointing at TypeScript that Node cannot
// load, so external dependencies resolve without "source" here; the workspace's packages are inlined (Vite resolves
// them to their sources, as everywhere else).
export default defineConfig({
  test: { ...shared.test, server: { deps: { inline: [/@tfgrpo\//] } } },
  resolve: { conditions: ["source", "import", "module", "node", "default"] },
});
