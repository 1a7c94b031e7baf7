import { TfgrpoError } from "@tfgrpo/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { createCodeInterpreter } from "./code-interpreter.js";
import { listProcessesInUidRange } from "./process-table.js";
import { createUidPool } from "./uid-pool.js";

// Its own uid range (outside the default one), so that "nothing left running" checks see only this file's sandboxes.
const uidRange = { first: 2_020_000_000, size: 1_000_000 };
const uidPool = createUidPool(uidRange);

describe("code interpreter sessions (real Python in bubblewrap)", () => {
  // Generous: only the timeout test wants a cell to run out of time, and it has its own interpreter.
  const interpreter = createCodeInterpreter({ uidPool, timeoutMs: 60_000, maxOutputBytes: 2000 });
  const impatient = createCodeInterpreter({ uidPool, timeoutMs: 2000 });
  afterAll(() => Promise.all([interpreter.close(), impatient.close()]));

  it("keeps variables between cells and prints the last expression, like a notebook", async () => {
    const session = interpreter.session();
    const first = await session.run(
      "from sympy import symbols, solve\nx = symbols('x')\nroots = solve(x**2 - 5*x + 6, x)",
    );
    expect(first).toMatchObject({ exitCode: 0, stdout: "", killed: false, sandbox: "bubblewrap" });
    expect(first.startupMs).toBeGreaterThan(0);
    const second = await session.run("print('sum:', sum(roots))\nsorted(roots)");
    expect(second).toMatchObject({ exitCode: 0, stdout: "sum: 5\n[2, 3]\n" });
    expect(second.startupMs).toBeUndefined();
    await session.close();
  });

  it("shows the model its own failing line in the traceback, without driver frames", async () => {
    const result = await interpreter.run("a = 1\nb = [1, 2]\nprint(b[a + 5])");
    expect(result.exitCode).toBe(1);
    expect(result.killed).toBe(false);
    expect(result.stderr).toContain('File "<cell 1>", line 3');
    expect(result.stderr).toContain("print(b[a + 5])");
    expect(result.stderr).toContain("IndexError: list index out of range");
    expect(result.stderr).not.toContain("_run_cell");
  });

  it("reports syntax errors and sys.exit codes as exit statuses, keeping the session", async () => {
    const session = interpreter.session();
    await session.run("kept = 7");
    const syntax = await session.run("def broken(:\n    pass");
    expect(syntax.exitCode).toBe(1);
    expect(syntax.stderr).toContain("SyntaxError");
    const exited = await session.run("import sys\nsys.exit(3)");
    expect(exited).toMatchObject({ exitCode: 3, killed: false });
    const still = await session.run("kept");
    expect(still).toMatchObject({ exitCode: 0, stdout: "7\n" });
    expect(still.stateLost).toBeUndefined();
    await session.close();
  });

  it("says so when the state was lost because a cell ended the process", async () => {
    const session = interpreter.session();
    await session.run("value = 1");
    const ended = await session.run("import os\nos._exit(4)");
    expect(ended).toMatchObject({ exitCode: 4, killed: false });
    expect(ended.notice).toContain("variables from earlier cells are gone");
    const next = await session.run("print('value' in globals())");
    expect(next).toMatchObject({ exitCode: 0, stdout: "False\n", stateLost: true });
    expect(next.notice).toContain("fresh session");
    await session.close();
  });

  it("recovers after a timeout with a fresh session", async () => {
    const session = impatient.session();
    await session.run("value = 1");
    const stuck = await session.run("import time\nprint('before', flush=True)\ntime.sleep(60)");
    expect(stuck).toMatchObject({ killed: true, killedReason: "timeout", stdout: "before\n" });
    const next = await session.run("print(1 + 1)");
    expect(next).toMatchObject({ exitCode: 0, stdout: "2\n", stateLost: true });
    await session.close();
  });

  it("truncates long output with a marker but keeps the cell and the session alive", async () => {
    const session = interpreter.session();
    const result = await session.run("for i in range(2000):\n    print('line', i)\nprint('the end')");
    expect(result).toMatchObject({ exitCode: 0, killed: false, truncated: { stdout: true, stderr: false } });
    expect(result.stdout.startsWith("line 0\nline 1\n")).toBe(true);
    expect(result.stdout.endsWith("line 1999\nthe end\n")).toBe(true);
    expect(result.stdout).toMatch(/\[\.\.\. \d+ bytes truncated \.\.\.\]/);
    expect((await session.run("i")).stdout).toBe("1999\n");
    await session.close();
  });

  it("cancels a running cell when the caller aborts", async () => {
    const controller = new AbortController();
    const running = interpreter.run("import time\ntime.sleep(60)", { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    expect(await running).toMatchObject({ killed: true, killedReason: "aborted" });
  });

  it("gives user code an empty stdin, not the driver's command channel", async () => {
    const result = await interpreter.run("try:\n    input()\nexcept EOFError:\n    print('eof')");
    expect(result.stdout).toBe("eof\n");
  });

  it("isolates sessions from each other", async () => {
    const [a, b] = [interpreter.session(), interpreter.session()];
    await Promise.all([a.run("secret = 'a'"), b.run("secret = 'b'")]);
    const [fromA, fromB] = await Promise.all([a.run("secret"), b.run("secret")]);
    expect([fromA.stdout, fromB.stdout]).toEqual(["'a'\n", "'b'\n"]);
    await Promise.all([a.close(), b.close()]);
  });

  it("refuses to run code when bubblewrap is unavailable, unless explicitly allowed", async () => {
    const refusing = createCodeInterpreter({ uidPool, bwrapPath: "/nonexistent/bwrap" });
    const error = await refusing.run("print(1)").catch((caught: unknown) => caught);
    expect(TfgrpoError.hasCode(error, "sandbox_unavailable")).toBe(true);
    expect((error as Error).message).toContain("allowUnsandboxed");

    process.env.TFGRPO_TEST_API_KEY = "sk-unsandboxed-secret";
    try {
      const weaker = createCodeInterpreter({
        uidPool,
        bwrapPath: "/nonexistent/bwrap",
        allowUnsandboxed: true,
        timeoutMs: 60_000,
      });
      const result = await weaker.run(
        "import os\nprint(os.getcwd().startswith(os.environ['HOME']), dict(os.environ))",
      );
      const bomb = await weaker.run("import os\nwhile True:\n    os.fork()");
      await weaker.close();
      expect(result).toMatchObject({ exitCode: 0, sandbox: "none" });
      expect(result.stdout.startsWith("True")).toBe(true);
      expect(result.stdout).not.toContain("sk-unsandboxed-secret");
      expect(bomb).toMatchObject({ killed: true, killedReason: "processes", sandbox: "none" });
    } finally {
      delete process.env.TFGRPO_TEST_API_KEY;
    }
  });

  it("without the sandbox, still ends a timed-out cell whose child escaped into its own session", async () => {
    const weaker = createCodeInterpreter({
      uidPool,
      bwrapPath: "/nonexistent/bwrap",
      allowUnsandboxed: true,
      timeoutMs: 2000,
    });
    const result = await weaker.run(
      "import subprocess, time\nsubprocess.Popen(['sleep', '1000'], start_new_session=True)\ntime.sleep(100)",
    );
    await weaker.close();
    expect(result).toMatchObject({ killed: true, killedReason: "timeout", sandbox: "none" });
    expect(await listProcessesInUidRange(uidRange.first, uidRange.size)).toEqual([]);
  });

  it("rejects invalid options with the field named", () => {
    expect(() => createCodeInterpreter({ uidPool, timeoutMs: -1 })).toThrow(/timeoutMs/);
  });
});
