/**
 * `path` under a base URL given with or without its trailing slash: `new URL("search", "http://host/api")` would
 * drop the base's last segment (`/search`), `urlUnder("search", "http://host/api")` keeps it (`/api/search`).
 */
export function urlUnder(path: string, base: string): URL {
  return new URL(path, base.endsWith("/") ? base : `${base}/`);
}
