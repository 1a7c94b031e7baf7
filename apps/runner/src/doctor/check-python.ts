import { defaultPreImports } from "@tfgrpo/tools";
import type { DoctorCheck, DoctorContext } from "./doctor-check.js";
import { runProgram } from "./run-program.js";

/** Where the code interpreter runs Python (its `pythonPath` default). */
export const interpreterPython = "/usr/bin/python3";

/** The modules a warm sandbox imports ahead of a cell: $TFGRPO_SANDBOX_PREIMPORT's list, else the interpreter's. */
export function preImportedModules(env: NodeJS.ProcessEnv): string[] {
  const setting = env.TFGRPO_SANDBOX_PREIMPORT?.trim();
  if (!setting || setting === "auto") return [...defaultPreImports];
  if (setting === "none") return [];
  return setting
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

// Importable names whose Debian package is not python3-<name>.
const debianPackages: Record<string, string> = { yaml: "python3-yaml", sklearn: "python3-sklearn" };

const findSpecs =
  "import importlib.util, sys\nprint(' '.join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))";

export const pythonCheck: DoctorCheck = {
  name: "python3",
  purpose: "the code interpreter (math tasks' tool) runs it, with its pre-imported modules",
  required: () => true,
  run: async (context: DoctorContext) => {
    const version = await runProgram(interpreterPython, ["--version"], { env: context.env });
    if (!version.ok)
      return {
        status: "missing",
        detail: `no ${interpreterPython} (${version.failure})`,
        install: `Debian/Ubuntu: sudo apt-get install python3 python3-numpy python3-sympy; macOS: brew install python (the code interpreter itself needs Linux)`,
      };
    const modules = preImportedModules(context.env);
    const probe = await runProgram(interpreterPython, ["-c", findSpecs, ...modules], { env: context.env });
    const missing = probe.ok ? probe.stdout.trim().split(/\s+/).filter(Boolean) : modules;
    const found = `${version.stdout.trim() || version.stderr.trim()} at ${interpreterPython}`;
    if (missing.length === 0)
      return { status: "ok", detail: `${found}, imports ${modules.join(", ") || "nothing ahead"}` };
    return {
      status: "missing",
      detail: `${found} lacks module(s) ${missing.join(", ")} (pre-imported by the code interpreter)`,
      install: `Debian/Ubuntu: sudo apt-get install ${missing.map((name) => debianPackages[name] ?? `python3-${name}`).join(" ")}; macOS: python3 -m pip install ${missing.join(" ")}`,
    };
  },
};
