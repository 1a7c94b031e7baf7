import { TfgrpoError } from "@tfgrpo/protocol";

export type StoreLocation = { backend: "sqlite"; path: string } | { backend: "postgres"; url: string };

/**
 * `sqlite:///abs/path.db`, `sqlite://relative.db`, `sqlite::memory:`, `:memory:` or a plain file path.
 * Other schemes are refused by name, so adding a backend is adding a case here.
 */
export function parseStoreUrl(urlOrPath: string): StoreLocation {
  const value = urlOrPath.trim();
  if (value === "")
    throw new TfgrpoError("invalid_config", "store location is empty", { details: { url: urlOrPath } });
  if (value === ":memory:" || value === "sqlite::memory:" || value === "sqlite://:memory:") {
    return { backend: "sqlite", path: ":memory:" };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  // A one-letter "scheme" is a Windows drive (C:\...), i.e. a plain path.
  if (!scheme || scheme.length === 1) return { backend: "sqlite", path: value };
  if (scheme.toLowerCase() === "sqlite" || scheme.toLowerCase() === "file") {
    const rest = value.slice(scheme.length + 1);
    const file = rest.startsWith("//") ? rest.slice(2) : rest;
    if (file === "") {
      throw new TfgrpoError("invalid_config", `store URL ${urlOrPath} names no file`, {
        details: { url: urlOrPath },
      });
    }
    return { backend: "sqlite", path: decodeURIComponent(file) };
  }
  if (scheme.toLowerCase() === "postgres" || scheme.toLowerCase() === "postgresql") {
    return { backend: "postgres", url: checkPostgresUrl(value) };
  }
  throw new TfgrpoError(
    "invalid_config",
    `unsupported store URL ${urlOrPath}: scheme "${scheme}" (supported: sqlite:///path/to/file.db, a file path, :memory:, postgres://user:password@host:port/database)`,
    { details: { url: urlOrPath, scheme } },
  );
}

/** `postgres://user:password@host:port/database`: a host and a database are required; the password never shows. */
function checkPostgresUrl(value: string): string {
  const shown = value.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
  const refuse = (why: string): never => {
    throw new TfgrpoError(
      "invalid_config",
      `invalid PostgreSQL URL ${shown}: ${why} (expected postgres://user:password@host:port/database)`,
      {
        details: { url: shown },
      },
    );
  };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse("not a URL");
  }
  if (url.hostname === "") refuse("no host");
  if (url.port !== "" && !/^\d+$/.test(url.port)) refuse(`port "${url.port}" is not a number`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (database === "") refuse("no database name");
  if (database.includes("/")) refuse(`database name "${database}" contains "/"`);
  return value;
}

/** The SQLite file a location names; null for `:memory:` and for a server (nothing on this machine's disk). */
export function localDatabaseFile(urlOrPath: string): string | null {
  const location = parseStoreUrl(urlOrPath);
  return location.backend === "sqlite" && location.path !== ":memory:" ? location.path : null;
}

/** The SQLite path (or ":memory:") of a location; a server URL is refused by name. */
export function sqlitePath(urlOrPath: string): string {
  const location = parseStoreUrl(urlOrPath);
  if (location.backend !== "sqlite") {
    throw new TfgrpoError(
      "invalid_config",
      `not a SQLite location: ${urlOrPath.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@")}`,
      {
        details: { backend: location.backend },
      },
    );
  }
  return location.path;
}
