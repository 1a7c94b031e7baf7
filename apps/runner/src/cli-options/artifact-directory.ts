import path from "node:path";
import { parseStoreUrl } from "@tfgrpo/store";

/** Where a run's files (reports, traces) go: beside a SQLite database file, else the working directory. */
export function artifactDirectory(db: string): string {
  const location = parseStoreUrl(db);
  return location.backend === "sqlite" ? path.dirname(path.resolve(location.path)) : process.cwd();
}
