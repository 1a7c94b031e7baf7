import { writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * The environment of a `tfgrpo` process whose curator gates on the validation means alone (`gate.test.kind: none`,
 * ties commit). For tests of crash, resume, transport and storage mechanics on a handful of validation tasks: they need
 * steps that commit, and the default paired test rightly refuses to rule out a 10-point loss on six tasks. Tests of
 * the gate itself keep the default.
 */
export async function meansOnlyGate(directory: string): Promise<NodeJS.ProcessEnv> {
  const file = path.join(directory, "curator-means-only-gate.yaml");
  await writeFile(file, "gate:\n  test:\n    kind: none\n");
  return { TFGRPO_CURATOR_CONFIG: file };
}
