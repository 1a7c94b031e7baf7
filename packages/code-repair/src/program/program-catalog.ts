import { loadQuixbugsProgram, type RepairProgram } from "./quixbugs-program.js";

/** Programs of one QuixBugs directory, each read once (defective programs and tests only). */
export interface ProgramCatalog {
  readonly dir: string;
  get(name: string): RepairProgram;
}

export function createProgramCatalog(dir: string): ProgramCatalog {
  const loaded = new Map<string, RepairProgram>();
  return {
    dir,
    get(name) {
      let program = loaded.get(name);
      if (!program) {
        program = loadQuixbugsProgram(dir, name);
        loaded.set(name, program);
      }
      return program;
    },
  };
}
