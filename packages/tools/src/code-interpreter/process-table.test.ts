import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { killProcessesOfUid, listProcessesOfUid, readProcessTable } from "./process-table.js";

// The process table is read once for everyone who asks in the same turn, and never from before a caller's call.

const uid = process.getuid?.() ?? 0;

describe("readProcessTable", () => {
  it("gives callers of the same turn one read, and a later caller a new one", async () => {
    const first = readProcessTable();
    const second = readProcessTable();
    expect(second).toBe(first);
    const table = await first;
    expect(table.get(uid)).toContain(process.pid);
    const third = readProcessTable();
    expect(third).not.toBe(first);
    await third;
  });

  it("sees a process started just before the call, even while an earlier read is pending", async () => {
    const earlier = readProcessTable();
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await new Promise<void>((resolve) => child.once("spawn", () => resolve()));
      // Asked for after the child exists: this read must include it (a read already scheduled may or may not).
      expect(await listProcessesOfUid(uid)).toContain(child.pid);
      await earlier;
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("leaves out processes that have exited", async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    await new Promise<void>((resolve) => child.once("spawn", () => resolve()));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGKILL");
    await exited;
    expect(await listProcessesOfUid(uid)).not.toContain(child.pid);
  });
});

describe("killProcessesOfUid", () => {
  it("returns at once when the uid has no process", async () => {
    // A uid from the sandbox range nobody runs as.
    expect(await killProcessesOfUid(1_999_999_999, 1000)).toBe(0);
  });
});
