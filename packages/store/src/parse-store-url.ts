import { TfgrpoError } from "@tfgrpo/protocol";

export type StoreLocation = { backend: "sqlite"; path: string };

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
  throw new TfgrpoError(
    "invalid_config",
    `unsupported store URL ${urlOrPath}: scheme "${scheme}" (supported: sqlite:///path/to/file.db, a file path, :memory:)`,
    { details: { url: urlOrPath, scheme } },
  );
}
