import { describe, expect, it } from "vitest";
import { createUidPool } from "./uid-pool.js";

const ownUid = process.getuid?.() ?? 0;

describe("createUidPool", () => {
  it("gives 200 concurrent sessions 200 different uids from its range", async () => {
    const pool = createUidPool({ first: 2_040_000_000, size: 1_000_000 });
    const uids = await Promise.all(Array.from({ length: 200 }, () => pool.acquire()));
    expect(new Set(uids).size).toBe(200);
    for (const uid of uids) expect(uid >= 2_040_000_000 && uid < 2_041_000_000).toBe(true);
  });

  it("never gives out a uid a process runs as, and says so when that leaves none", async () => {
    // A range of three uids, one of them ours (this process runs as it).
    const pool = createUidPool({ first: ownUid - 1, size: 3 });
    const given = [await pool.acquire(), await pool.acquire()];
    expect(given).not.toContain(ownUid);
    expect(new Set(given).size).toBe(2);
    await expect(pool.acquire()).rejects.toThrow(/could not find a free sandbox uid/);
    pool.release(given[0]!);
    expect(await pool.acquire()).toBe(given[0]);
  });
});
