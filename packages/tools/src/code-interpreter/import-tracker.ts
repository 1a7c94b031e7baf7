/**
 * What the warm pool pre-imports when its `preImport` is "auto": the modules recent sessions' cells imported.
 *
 * A pre-import is paid by every pooled sandbox whether its rollout uses it or not (sympy and numpy cost ≈0.4 s of CPU
 * each time), and code written by one model for one domain keeps importing the same few modules; so the pool imports
 * those a quarter or more of the last sessions imported, and nothing it has not seen used. Only modules from a fixed
 * list of known libraries are ever pre-imported: the names come from model-written code, and a pre-import runs before
 * the sandbox's per-process limits are set.
 */
export interface ImportTracker {
  /** One finished session and the top-level modules its cells imported (a session without cells is not counted). */
  record(modules: ReadonlySet<string>): void;
  /** The modules a sandbox started now should import, most used first. */
  current(): string[];
}

/** Libraries commonly imported by code solving math and data tasks, and safe to import ahead of a cell. */
export const autoPreImportCandidates: readonly string[] = [
  "sympy",
  "numpy",
  "scipy",
  "mpmath",
  "networkx",
  "math",
  "cmath",
  "fractions",
  "decimal",
  "statistics",
  "itertools",
  "functools",
  "collections",
  "heapq",
  "bisect",
  "random",
  "re",
  "datetime",
  "json",
];

export interface ImportTrackerOptions {
  /** Sessions remembered. */
  window?: number;
  /** Share of the remembered sessions that must have imported a module for it to be pre-imported. */
  share?: number;
  /** Modules that may be pre-imported (the others are never). */
  candidates?: readonly string[];
}

export function createImportTracker(options: ImportTrackerOptions = {}): ImportTracker {
  const window = options.window ?? 32;
  const share = options.share ?? 0.25;
  const candidates = new Set(options.candidates ?? autoPreImportCandidates);
  const sessions: (readonly string[])[] = [];
  return {
    record(modules) {
      sessions.push([...modules].filter((name) => candidates.has(name)));
      if (sessions.length > window) sessions.shift();
    },
    current() {
      const counts = new Map<string, number>();
      for (const session of sessions)
        for (const name of session) counts.set(name, (counts.get(name) ?? 0) + 1);
      // A few sessions are not evidence yet: the bar is at least one of four, whatever the window holds.
      const needed = share * Math.max(sessions.length, 4);
      return [...counts]
        .filter(([, count]) => count >= needed)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([name]) => name);
    },
  };
}

/**
 * Top-level modules a cell's `import` statements name (`import numpy as np, sympy` -> numpy, sympy;
 * `from sympy.abc import x` -> sympy). A reading of the text, not of Python: an import inside a string counts too,
 * which only ever adds a candidate the pool may pre-import.
 */
export function importedModules(code: string): Set<string> {
  const modules = new Set<string>();
  for (const match of code.matchAll(
    /^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b|import[ \t]+([^\n#;]+))/gm,
  )) {
    if (match[1] !== undefined) {
      modules.add(match[1].split(".")[0]!);
      continue;
    }
    for (const part of match[2]!.split(",")) {
      const name = /^\s*([A-Za-z_]\w*)/.exec(part)?.[1];
      if (name) modules.add(name);
    }
  }
  return modules;
}
