import { createStore, type Store } from "@tfgrpo/store";
import { type PostgresServerHandle, startPostgresServer } from "@tfgrpo/store/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createStudioApp } from "./studio-app.js";
import { seedStudioLibrary } from "./testing/seed-library.js";

// The team backend: the same studio over a real PostgreSQL, with a second connection committing as a run would.
let server: PostgresServerHandle;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server?.stop());

it("curates a library stored in PostgreSQL: pages, an action through the curator, a stale page refused, live heads", async () => {
  const url = await server.createDatabase();
  const store: Store = await createStore(url);
  const run: Store = await createStore(url);
  const studio = createStudioApp({ store, pollIntervalMs: 60_000 });
  try {
    await seedStudioLibrary(store);
    const origin = "http://127.0.0.1:4477";
    const first = await studio.app.request(`${origin}/d/math`);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("7 of 8 entries");
    const cookie = first.headers.getSetCookie()[0]!.split(";")[0]!;
    const post = (fields: Record<string, string>) =>
      studio.app.request(`${origin}/d/math/actions/approve`, {
        method: "POST",
        headers: { cookie, origin },
        body: new URLSearchParams({ _csrf: cookie.split("=")[1]!, ...fields }),
      });
    const seen: number[] = [];
    const stop = studio.watcher.subscribe((change) => {
      if (change.domain === "math" && change.head !== null) seen.push(change.head);
    });
    await studio.watcher.poll();

    expect((await post({ id: "G1", expectedHead: "2", note: "checked by hand" })).status).toBe(303);
    const approved = (await store.getHead("math"))!.experiences.find((e) => e.id === "G1")!;
    expect(approved.status).toBe("active");
    expect(approved.history.at(-1)!.reason).toBe("checked by hand");

    // A run commits through its own connection; a page still showing v3 is refused and nothing is written.
    await run.applyOperations("math", [{ op: "keep", id: "G0", reason: "step" }], {
      parent: 3,
      state: "committed",
    });
    const stale = await post({ id: "G6", expectedHead: "3", note: "" });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain(
      "the library changed, reload: math is now at v4 (this page showed v3)",
    );
    expect((await store.getHead("math"))!.experiences.find((e) => e.id === "G6")!.status).toBe("candidate");
    await studio.watcher.poll();
    expect(seen).toEqual([3, 4]);
    stop();
  } finally {
    studio.close();
    await run.close();
    await store.close();
  }
});
