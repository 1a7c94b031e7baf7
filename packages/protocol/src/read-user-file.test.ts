import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TfgrpoError } from "./errors.js";
import { readUserText, readUserTextSync, unreadableFileReason } from "./read-user-file.js";
import { temporaryDirectory } from "./testing/index.js";

describe("readUserText", () => {
  it("refuses a directory, a missing file and a path through a file in one line naming the path", async () => {
    await using dir = await temporaryDirectory("tfgrpo-user-file-");
    const folder = path.join(dir.path, "train");
    const file = path.join(dir.path, "tasks.jsonl");
    await mkdir(folder);
    await writeFile(file, "{}\n");
    const cases: Array<[string, string]> = [
      [folder, "it is a directory, not a file"],
      [path.join(dir.path, "missing.jsonl"), "no such file"],
      [path.join(file, "inner.jsonl"), "a part of the path is not a directory"],
    ];
    for (const [target, reason] of cases) {
      const options = { what: "dataset", code: "invalid_dataset", option: "--train" } as const;
      for (const read of [readUserText, async (f: string, o: typeof options) => readUserTextSync(f, o)]) {
        const error = await read(target, options).catch((e: unknown) => e);
        expect(TfgrpoError.hasCode(error, "invalid_dataset")).toBe(true);
        expect((error as Error).message).toBe(`--train ${target}: cannot read dataset: ${reason}`);
        expect((error as TfgrpoError).details).toMatchObject({ file: target, reason, field: "train" });
      }
    }
    expect(await readUserText(file, { what: "dataset" })).toBe("{}\n");
    expect(unreadableFileReason(file)).toBe(null);
  });

  // Root reads any file whatever its mode, so this case can only be seen as another user.
  it.skipIf(process.getuid?.() === 0)("refuses a file it may not read", async () => {
    await using dir = await temporaryDirectory("tfgrpo-user-file-");
    const file = path.join(dir.path, "secret.yaml");
    await writeFile(file, "a: 1\n");
    await chmod(file, 0o000);
    await expect(readUserText(file, { what: "models config" })).rejects.toThrow(
      `${file}: cannot read models config: permission denied`,
    );
  });
});
