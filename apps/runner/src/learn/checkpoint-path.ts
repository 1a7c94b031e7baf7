import path from "node:path";
import { parseStoreUrl } from "@tfgrpo/store";
import { artifactDirectory } from "../cli-options/artifact-directory.js";

/** The checkpointer's location: the same PostgreSQL database as the store, or `checkpoints.db` beside the SQLite file. */
export function checkpointPathFor(db: string): string {
  const location = parseStoreUrl(db);
  if (location.backend === "postgres") return db;
  return location.path === ":memory:" ? ":memory:" : path.join(artifactDirectory(db), "checkpoints.db");
}
