import { afterAll, describe, expect, it } from "vitest";
import { createProgramCatalog } from "../program/program-catalog.js";
import { listQuixbugsPrograms, loadQuixbugsProgram } from "../program/quixbugs-program.js";
import { quixbugsDir } from "../quixbugs-fixture.test-support.js";
import { toRepairTask } from "../repair-task.js";
import { createRepairSandbox } from "../sandbox/repair-sandbox.js";
import { checkReference } from "./reference-check.js";
import { createRepairReward } from "./repair-reward.js";

const sandbox = createRepairSandbox();
afterAll(() => sandbox.close());
const catalog = createProgramCatalog(quixbugsDir);
const reward = createRepairReward({ catalog, sandbox });
const gcd = catalog.get("gcd");
const task = toRepairTask(gcd);
const fixed = gcd.source.replace("gcd(a % b, b)", "gcd(b, a % b)");
const state = (file: string) => ({
  environment: { diff: [], finalState: { program: "gcd", files: { "gcd.py": file } } },
});

describe("the tests as the reward", () => {
  it("scores the final file on every case: the share passing, 1 only when all pass, the failures named", async () => {
    const solved = await reward(task, "swapped the arguments", state(fixed));
    expect(solved).toMatchObject({ reward: 1, grade: "pass" });
    expect(solved.reason).toBe("solved: all test cases: 6/6 passed");
    const defective = await reward(task, "done", state(gcd.source));
    expect(defective.reward).toBeCloseTo(1 / 6);
    expect(defective.grade).toBe("partial");
    expect(defective.reason.split("\n")[0]).toBe("all test cases: 1/6 passed");
    expect(defective.reason).toMatch(/ERROR test_gcd\[5\]: \w+Error/);
  });

  it("a symptom patch that passes the visible cases still fails the hidden ones", async () => {
    const patched = gcd.source.replace(
      "def gcd(a, b):\n",
      "def gcd(a, b):\n    if (a, b) == (13, 13): return 13\n    if (a, b) == (37, 600): return 1\n",
    );
    expect((await sandbox.runCases(gcd, patched, "visible")).passed).toBe(3);
    const result = await reward(task, "done", state(patched));
    expect(result.reward).toBeCloseTo(3 / 6);
  });

  it("in solved mode the reward is 1 or 0; the reason still counts the cases", async () => {
    const binary = createRepairReward({ catalog, sandbox, mode: "solved" });
    const result = await binary(task, "done", state(gcd.source));
    expect(result).toMatchObject({ reward: 0, grade: "fail" });
    expect(result.reason.split("\n")[0]).toBe("all test cases: 1/6 passed");
    expect((await binary(task, "done", state(fixed))).reward).toBe(1);
  });

  it("reads the final file from the diff when the state was not stored; no environment is 0 with a reason", async () => {
    const diff = [{ path: "/files/gcd.py", op: "replace", before: gcd.source, after: fixed }];
    expect((await reward(task, null, { environment: { diff } })).reward).toBe(1);
    expect(await reward(task, null, {})).toMatchObject({
      reward: 0,
      reason: "no environment record: the attempt's workspace is unknown",
    });
  });

  it("self-check on all 30 programs: the reference passes every case, the defective program fails one at least", async () => {
    const names = listQuixbugsPrograms(quixbugsDir);
    expect(names).toHaveLength(30);
    const failures: string[] = [];
    // Two at a time: the slow ones (levenshtein, sqrt's endless loops) overlap with the quick ones.
    const queue = [...names];
    await Promise.all(
      [0, 1].map(async () => {
        for (let name = queue.shift(); name; name = queue.shift()) {
          const check = await checkReference(quixbugsDir, loadQuixbugsProgram(quixbugsDir, name), sandbox);
          if (!check.ok) {
            failures.push(
              `${name}: reference ${check.reference.passed}/${check.reference.total}, defective ${check.defective.passed}/${check.defective.total}`,
            );
          }
        }
      }),
    );
    expect(failures).toEqual([]);
  }, 600_000);
});
