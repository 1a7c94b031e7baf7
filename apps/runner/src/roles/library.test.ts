import { createInProcessBus } from "@tfgrpo/protocol";
import { afterEach, beforeEach, expect, it } from "vitest";
import { loadRole } from "./registry.js";

// The library role writes outcomes into the workspace database and reads a models config like every worker: it
// refuses to start without either, in one line, instead of guessing.
const saved: Record<string, string | undefined> = {};
beforeEach(() => {
  for (const name of ["TFGRPO_CONFIG", "TFGRPO_DB"]) {
    saved[name] = process.env[name];
    delete process.env[name];
  }
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
});

it("the library role needs --db and --config", async () => {
  const factory = await loadRole("library");
  const bus = createInProcessBus();
  try {
    await expect(factory({ bus, log: () => {} })).rejects.toThrow(
      "the library role serves the workspace's libraries and records outcomes in it: pass --db (or set TFGRPO_DB)",
    );
    await expect(factory({ bus, log: () => {}, db: ":memory:" })).rejects.toThrow(
      "the library role needs a models config: pass --config models.yaml (or set TFGRPO_CONFIG)",
    );
  } finally {
    await bus.close();
  }
});
