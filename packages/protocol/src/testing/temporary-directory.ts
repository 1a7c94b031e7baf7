import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { makeAsyncResource } from "./make-async-resource.js";

export interface TemporaryDirectory extends AsyncDisposable {
  /** Absolute path of the directory. */
  readonly path: string;
}

/**
 * A fresh directory under the system's temp dir, removed with everything in it when disposed:
 * `await using dir = await temporaryDirectory("tfgrpo-x-")`, then `dir.path`. A test that fails still cleans up.
 */
export async function temporaryDirectory(prefix = "tfgrpo-test-"): Promise<TemporaryDirectory> {
  const directory = await mkdtemp(path.join(os.tmpdir(), prefix));
  return makeAsyncResource({ path: directory }, () => rm(directory, { recursive: true, force: true }));
}
