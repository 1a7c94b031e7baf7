import { createInProcessBus } from "@tfgrpo/protocol";
import { afterEach, beforeEach, expect, it } from "vitest";
import { loadRole } from "./registry.js";

// A worker started without a models config must stop with one line, not fall back to the simulated world.
let previous: string | undefined;
beforeEach(() => {
  previous = process.env.TFGRPO_CONFIG;
  delete process.env.TFGRPO_CONFIG;
});
afterEach(() => {
  if (previous !== undefined) process.env.TFGRPO_CONFIG = previous;
});

it.each(["actor", "critic", "curator"])("the %s role needs --config or TFGRPO_CONFIG", async (name) => {
  const factory = await loadRole(name);
  const bus = createInProcessBus();
  try {
    await expect(factory({ bus, log: () => {}, db: ":memory:" })).rejects.toThrow(
      `the ${name} role needs a models config: pass --config models.yaml (or set TFGRPO_CONFIG)`,
    );
  } finally {
    await bus.close();
  }
});
