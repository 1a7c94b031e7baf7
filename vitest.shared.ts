import { defineConfig } from "vitest/config";

// Workspace packages are resolved to their TypeScript sources (the "source" export condition),
// so tests never run against a stale dist/.
export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"], externalConditions: ["source"] } },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
