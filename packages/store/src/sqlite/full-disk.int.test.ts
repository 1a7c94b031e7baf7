import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";

// A real full disk under the database: a 1 MiB tmpfs mounted in a private user and mount namespace (unshare -rm,
// no privileges needed beyond user namespaces), a store on it written until the disk is full.
const fixture = fileURLToPath(new URL("../../test/fixtures/fill-disk.ts", import.meta.url));

describe("a full disk under the store", () => {
  it("fails the write with one clear line naming the full disk; the database keeps its integrity and its head", async () => {
    await using dir = await temporaryDirectory("tfgrpo-full-disk-");
    const mountPoint = path.join(dir.path, "small");
    const script = [
      `mkdir -p '${mountPoint}'`,
      `mount -t tmpfs -o size=1m tmpfs '${mountPoint}'`,
      `exec '${process.execPath}' --conditions=source --import tsx '${fixture}' '${mountPoint}/tfgrpo.db'`,
    ].join(" && ");
    const run = spawnSync("unshare", ["-rm", "sh", "-c", script], {
      encoding: "utf8",
      timeout: 60_000,
      cwd: path.dirname(fixture),
    });
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as {
      failure: { code: string; message: string } | null;
      head: number | null;
      integrity: string;
    };
    expect(result.failure?.code).toBe("storage_error");
    expect(result.failure?.message).toMatch(/tfgrpo\.db: the disk is full.*; nothing was written$/);
    expect(result.failure?.message.split("\n")).toHaveLength(1);
    expect(result.head).toBe(1);
    expect(result.integrity).toBe("ok");
  }, 90_000);
});
