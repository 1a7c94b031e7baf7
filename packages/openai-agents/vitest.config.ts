import { defineConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// The workspace's packages are inlined (resolved to their sources); the OpenAI Agents SDK and its dependencies load
// as published.
export default defineConfig({
  test: { ...shared.test, server: { deps: { inline: [/@tfgrpo\//] } } },
  resolve: { conditions: ["source", "import", "module", "node", "default"] },
});
