import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export interface StudioAsset {
  body: string;
  type: string;
}

/** The studio's static files, read once: htmx from node_modules (no CDN) and the studio's own script and styles. */
export function loadStudioAssets(): Record<string, StudioAsset> {
  const require = createRequire(import.meta.url);
  const own = (name: string) => readFileSync(new URL(`../assets/${name}`, import.meta.url), "utf8");
  return {
    "htmx.min.js": {
      body: readFileSync(require.resolve("htmx.org/dist/htmx.min.js"), "utf8"),
      type: "text/javascript; charset=utf-8",
    },
    "studio.js": { body: own("studio.js"), type: "text/javascript; charset=utf-8" },
    "studio.css": { body: own("studio.css"), type: "text/css; charset=utf-8" },
  };
}
