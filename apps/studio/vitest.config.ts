import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// The browser tests poll the page for what a search or an action changes; on a loaded 2-core machine the round trip
// through the studio server and Chromium can take longer than vitest's default 1 s of polling.
export default mergeConfig(shared, defineConfig({ test: { expect: { poll: { timeout: 10_000 } } } }));
