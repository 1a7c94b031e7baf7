import { createInProcessBus, TfgrpoError } from "@tfgrpo/protocol";
import { createStore } from "@tfgrpo/store";
import { expect, it } from "vitest";
import { createBusLibraryClient } from "./bus-library-client.js";
import { createLibraryService } from "./in-process-library-service.js";
import { createLibraryRole } from "./library-role.js";

it("a client over the Bus gets experiences and reports outcomes like the service itself, errors with their codes", async () => {
  const store = await createStore(":memory:");
  await store.applyOperations("math", [{ op: "add", text: "Check units.", reason: "r", status: "active" }], {
    parent: null,
    state: "committed",
  });
  const bus = createInProcessBus();
  const handle = await createLibraryRole(createLibraryService({ store, exposure: false }), store).serve(bus);
  try {
    const client = createBusLibraryClient(bus);
    const reply = await client.getExperiences({ domain: "math", task: "2+2?" });
    expect(reply).toMatchObject({ version: 1, entries: [{ id: "G0", text: "Check units." }] });
    expect(await client.reportOutcome({ selectionId: reply.selectionId, success: true })).toMatchObject({
      creditedIds: ["G0"],
    });
    const again = await client
      .reportOutcome({ selectionId: reply.selectionId, success: true })
      .catch((e) => e);
    expect(TfgrpoError.isInstance(again) && again.code).toBe("conflict");
    const bad = await client.getExperiences({ domain: "math", task: "" }).catch((e) => e);
    expect(TfgrpoError.isInstance(bad) && bad.code).toBe("invalid_input");
    expect((bad as Error).message).toContain("task");
  } finally {
    await handle.close();
    await bus.close();
    await store.close();
  }
});
