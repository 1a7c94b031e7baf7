import path from "node:path";

/** Where a run's files (reports, traces) go: beside a SQLite database file, else the working directory. */
export function artifactDirectory(db: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(db) && !db.startsWith("sqlite:")) return process.cwd();
  return path.dirname(path.resolve(db.replace(/^sqlite:(\/\/)?/, "")));
}
