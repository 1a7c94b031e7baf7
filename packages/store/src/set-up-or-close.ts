import type { StoreLifecycle } from "./store.js";

/** Sets a newly made store up (migrates it); closes it again if that fails, so a refused database is left closed. */
export async function setUpOrClose<S extends StoreLifecycle>(store: S): Promise<S> {
  try {
    await store.setup();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
