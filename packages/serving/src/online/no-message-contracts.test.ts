import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Contracts between modules are codes, typed details and decision kinds: no product file of the online learner
// reads a decision or an error from the wording of tfgrpo's own messages or reasons (rewording one must never
// change resume, takeover or metrics).
const here = path.dirname(fileURLToPath(import.meta.url));
const dirs = [here, path.join(here, "../../../../apps/runner/src/online")];
const onText = [
  /\.(test|match|exec)\(.*\.(message|reason)\b/,
  /\.(message|reason)\)?\.(startsWith|endsWith|includes|match|search)\(/,
];

function messageContracts(source: string): string[] {
  return source.split("\n").filter((line) => onText.some((pattern) => pattern.test(line)));
}

describe("no contract by message text in the online learner", () => {
  it("finds the patterns it looks for", () => {
    expect(messageContracts("if (/lease/.test((error as Error).message)) retry();")).toHaveLength(1);
    expect(messageContracts('kind: /^abandoned:/.test(event.decision.reason) ? "a" : "b",')).toHaveLength(1);
    expect(messageContracts('if (decision.reason.startsWith("rollback:")) x();')).toHaveLength(1);
    expect(messageContracts("log(`failed: ${error.message}`);")).toEqual([]);
  });

  it("no product file branches on the text of a message or a reason", async () => {
    const found: string[] = [];
    for (const dir of dirs)
      for (const file of await readdir(dir)) {
        if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
        for (const line of messageContracts(await readFile(path.join(dir, file), "utf8")))
          found.push(`${path.basename(dir)}/${file}: ${line.trim()}`);
      }
    expect(found).toEqual([]);
  });
});
