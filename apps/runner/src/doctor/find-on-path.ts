import { accessSync, constants } from "node:fs";
import path from "node:path";

/**
 * The executable `name` in the directories of $PATH, as a shell finds it (an absolute or relative path is checked
 * as given). The doctor reports what a user's shell and the commands it starts see, so only $PATH counts.
 */
export function findOnPath(name: string, searchPath = process.env.PATH ?? ""): string | undefined {
  const candidates = name.includes("/")
    ? [name]
    : searchPath
        .split(path.delimiter)
        .filter(Boolean)
        .map((directory) => path.join(directory, name));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
