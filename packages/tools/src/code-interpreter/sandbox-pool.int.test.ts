import { afterAll, describe, expect, it } from "vitest";
import { createToolResources } from "../langchain/tool-resources.js";
import { createToolset, type Toolset } from "../langchain/toolset.js";
import { createCodeInterpreter } from "./code-interpreter.js";
import { listProcessesInUidRange, listProcessesOfUid } from "./process-table.js";
import { createUidPool } from "./uid-pool.js";

// Its own uid range (outside the default one), so that "nothing left running" checks see only this file's sandboxes.
const uidRange = { first: 2_030_000_000, size: 1_000_000 };
const uidPool = createUidPool(uidRange);
const asRoot = process.getuid?.() === 0;

/** One code cell through a rollout's code_interpreter tool, as the actor calls it; the parsed JSON the model reads. */
async function cell(
  toolset: Toolset,
  code: string,
): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const tool = toolset.tools.find((candidate) => candidate.name === "code_interpreter")!;
  return JSON.parse(String(await tool.invoke({ code })));
}

const probe = [
  "import os, sys",
  "print('uid', os.getuid())",
  "print('files', sorted(os.listdir('/scratch')), sorted(os.listdir('/tmp')))",
  "print('variable', 'secret' in globals())",
  "print('preloaded', all(name in sys.modules for name in ('sympy', 'numpy', 'fractions')))",
].join("\n");

describe("warm sandbox pool (real bubblewrap)", () => {
  const interpreter = createCodeInterpreter({
    uidPool,
    timeoutMs: 60_000,
    pool: { size: 2, preImport: ["sympy", "numpy", "math", "fractions"] },
  });
  const resources = createToolResources({}, { interpreter });
  afterAll(async () => {
    await resources.close();
    await interpreter.close();
    // Shutdown kills every pooled sandbox: nothing is left under this file's uids.
    expect(await listProcessesInUidRange(uidRange.first, uidRange.size)).toEqual([]);
  });

  it("gives two rollouts different sandboxes: no session, file or variable passes between them", async () => {
    await interpreter.warm(2);
    const [a, b] = [
      createToolset({ domain: "math", resources }),
      createToolset({ domain: "math", resources }),
    ];
    const [writeA, writeB] = await Promise.all([
      cell(
        a,
        "secret = 'from A'\nopen('/scratch/a.txt', 'w').write('A')\nopen('/tmp/a.txt', 'w').write('A')\n" +
          probe,
      ),
      cell(b, probe),
    ]);
    expect(writeA.exitCode).toBe(0);
    expect(writeA.stdout).toContain("files ['a.txt'] ['a.txt']");
    expect(writeA.stdout).toContain("variable True");
    // B runs at the same time in its own warm sandbox: none of A's files or variables, its own uid.
    expect(writeB.stdout).toContain("files [] []");
    expect(writeB.stdout).toContain("variable False");
    expect(writeB.stdout).toContain("preloaded True");
    const uidOf = (stdout: string) => Number(/^uid (\d+)$/m.exec(stdout)?.[1]);
    if (asRoot) expect(uidOf(writeA.stdout)).not.toBe(uidOf(writeB.stdout));
    // Both came from the pool: neither had to start a sandbox of its own.
    expect(interpreter.poolStats()).toMatchObject({ handedOut: 2, missed: 0 });

    // A's rollout ends: its sandbox is destroyed, not recycled (nothing runs under its uid any more).
    expect((await cell(a, "secret")).stdout).toBe("'from A'\n");
    await a.close();
    if (asRoot) expect(await listProcessesOfUid(uidOf(writeA.stdout))).toEqual([]);

    // The next rollout gets the sandbox the pool started meanwhile: still nothing of A's.
    await interpreter.warm(1);
    const c = createToolset({ domain: "math", resources });
    const next = await cell(c, probe);
    expect(next.stdout).toContain("files [] []");
    expect(next.stdout).toContain("variable False");
    expect(interpreter.poolStats()).toMatchObject({ handedOut: 3, missed: 0 });
    // And B keeps its own state while others come and go.
    expect((await cell(b, "print('variable', 'secret' in globals())")).stdout).toBe("variable False\n");
    await Promise.all([b.close(), c.close()]);
  });

  it("hands out sandboxes with the modules imported, so the first code call of a rollout is fast", async () => {
    await interpreter.warm(1);
    const session = interpreter.session();
    const first = await session.run("import sympy, sys\nprint(sympy.factorint(2**16 + 1), 'sympy' in dir())");
    // The pre-imports live in sys.modules only: the cell namespace starts as empty as in a cold session.
    expect(first).toMatchObject({ exitCode: 0, stdout: "{65537: 1} True\n" });
    const fresh = await session.run("print(sorted(k for k in globals() if not k.startswith('__')))");
    expect(fresh.stdout).toBe("['sympy', 'sys']\n");
    // The hand-over is the only start-up this call waited for (a cold start is a sandbox and a sympy import).
    expect(first.startupMs).toBeLessThan(first.durationMs + 50);
    await session.close();
  });

  it('on "auto", pre-imports what the sessions before imported, and nothing before it has seen any', async () => {
    const learner = createCodeInterpreter({ uidPool, pool: { size: 1 } });
    const check = "import sys\nprint('statistics' in sys.modules)";
    try {
      await learner.warm(1);
      expect(learner.poolStats()?.preImport).toEqual([]);
      expect((await learner.run(check)).stdout).toBe("False\n");
      for (let i = 0; i < 4; i++) {
        const used = await learner.run("import statistics\nprint(statistics.median([3, 1, 2]))");
        expect(used.stdout).toBe("2\n");
      }
      // 4 of the 5 sessions imported statistics: a sandbox started from now on has it loaded before its first cell.
      expect(learner.poolStats()?.preImport).toEqual(["statistics"]);
      await learner.run("pass"); // takes the sandbox started before the last session was recorded
      await learner.warm(1);
      expect((await learner.run(check)).stdout).toBe("True\n");
    } finally {
      await learner.close();
    }
  });

  it("turns off with size 0: every session starts its own sandbox", async () => {
    const cold = createCodeInterpreter({ uidPool, pool: { size: 0 } });
    await cold.warm();
    expect(cold.poolStats()).toBeUndefined();
    expect((await cold.run("import sys\nprint('sympy' in sys.modules)")).stdout).toBe("False\n");
    await cold.close();
  });

  it("rejects a pre-import that is not a module name, naming the field", () => {
    expect(() => createCodeInterpreter({ pool: { size: 1, preImport: ["os; import socket"] } })).toThrow(
      "pool.preImport[0]: a Python module name",
    );
  });
});
