export { type GuardOptions, guard } from "./guard.js";
export { createHeadWatcher, type HeadChange, type HeadWatcher } from "./head-watcher.js";
export { escapeHtml, Html, html, raw } from "./html.js";
export { type LibraryQuery, parseLibraryQuery, selectEntries } from "./library-query.js";
export { isLoopbackHost } from "./security.js";
export {
  defaultStudioPort,
  type RunningStudio,
  type StartStudioOptions,
  startStudio,
} from "./start-studio.js";
export { type CreateStudioAppOptions, createStudioApp, type StudioApp } from "./studio-app.js";
export type { StudioStore } from "./studio-store.js";
export { type DiffSegment, wordDiff } from "./word-diff.js";
