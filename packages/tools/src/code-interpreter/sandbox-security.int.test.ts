import { readdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CodeInterpreter,
  type CodeInterpreterOptions,
  createCodeInterpreter,
} from "./code-interpreter.js";
import { listProcessesInUidRange } from "./process-table.js";
import { detectCgroupSupport } from "./sandbox-cgroup.js";
import { createUidPool } from "./uid-pool.js";

// Its own uid range (outside the default one), so that "nothing left running" checks see only this file's sandboxes.
const uidRange = { first: 2_010_000_000, size: 1_000_000 };
const uidPool = createUidPool(uidRange);

// The acceptance tests of the sandbox: every one runs real Python in real bubblewrap on this machine.

const sandboxProcesses = () => listProcessesInUidRange(uidRange.first, uidRange.size);
const cgroupSupport = await detectCgroupSupport();
const sandboxCgroups = async () => {
  const parents = [
    ...new Set([cgroupSupport?.pids, cgroupSupport?.memory].filter((dir) => dir !== undefined)),
  ];
  const names = await Promise.all(parents.map((dir) => readdir(dir)));
  return names.flat().filter((name) => name.startsWith(`tfgrpo-${process.pid}-`));
};

/**
 * The suite runs twice, unchanged: on sandboxes started for each session ("cold") and on sandboxes a warm pool started
 * ahead of need with its default pre-imports ("pooled"). In the pooled run each cell gets an interpreter of its own
 * (same options) whose pool of one is ready before the cell is sent, so the cell runs in a sandbox the pool started;
 * the interpreter is closed right after, so the pool's refill cannot pass for a process the cell left behind. After
 * the suite: every pool handed out its sandbox and no cell found its pool empty.
 */
const pooledInterpreters: CodeInterpreter[] = [];
function pooledSessions(options: CodeInterpreterOptions): CodeInterpreter {
  return {
    ...createCodeInterpreter(options),
    async run(code, runOptions) {
      const pooled = createCodeInterpreter({ ...options, pool: { size: 1 } });
      pooledInterpreters.push(pooled);
      try {
        await pooled.warm(1);
        return await pooled.run(code, runOptions);
      } finally {
        await pooled.close();
      }
    },
  };
}
const variants = [
  { sessions: "cold", create: createCodeInterpreter },
  { sessions: "pooled", create: pooledSessions },
];

describe.each(variants)("code interpreter sandbox (real bubblewrap, $sessions)", ({ sessions, create }) => {
  // Limits other than time must end these cells, so the timeout is generous (a loaded CI machine is slow);
  // the cases that are about time use their own short-timeout interpreter.
  const interpreter = create({ uidPool, timeoutMs: 60_000, memoryMb: 256, maxProcesses: 16 });
  const impatient = create({ uidPool, timeoutMs: 3000, memoryMb: 256, maxProcesses: 16 });
  let server: Server;
  let port: number;
  let requestsSeen = 0;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      requestsSeen++;
      response.end("reachable");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await Promise.all([interpreter.close(), impatient.close()]);
    await new Promise((resolve) => server.close(resolve));
    // The host stays healthy: nothing the sandboxed code started is still running, no sandbox cgroup is left.
    expect(await sandboxProcesses()).toEqual([]);
    expect(await sandboxCgroups()).toEqual([]);
    if (sessions === "pooled") {
      expect(pooledInterpreters.length).toBeGreaterThan(10);
      for (const pooled of pooledInterpreters) {
        expect(pooled.poolStats()).toMatchObject({ handedOut: 1, missed: 0, ready: 0, starting: 0 });
      }
    }
  });

  it("runs in bubblewrap as an unprivileged user", async () => {
    expect(await interpreter.sandbox()).toBe("bubblewrap");
    const result = await interpreter.run("import os\nprint(os.getuid(), os.getgid(), os.getcwd())");
    expect(result.exitCode).toBe(0);
    const [uid, gid, cwd] = result.stdout.trim().split(" ");
    expect(Number(uid)).toBeGreaterThanOrEqual(uidRange.first);
    expect(Number(uid)).toBeLessThan(uidRange.first + uidRange.size);
    expect(gid).toBe(uid);
    expect(cwd).toBe("/scratch");
  });

  it("refuses the network, loopback included", async () => {
    const code = [
      "import socket, urllib.request",
      "print('interfaces', sorted(name for _, name in socket.if_nameindex()))",
      "try:",
      `    socket.create_connection(('127.0.0.1', ${port}), timeout=2)`,
      "    print('connected')",
      "except OSError as error:",
      "    print('refused', type(error).__name__)",
      "try:",
      `    urllib.request.urlopen('http://localhost:${port}/', timeout=2)`,
      "    print('fetched')",
      "except Exception as error:",
      "    print('refused', type(error).__name__)",
    ].join("\n");
    const result = await interpreter.run(code);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("interfaces ['lo']");
    expect(result.stdout).not.toContain("connected");
    expect(result.stdout).not.toContain("fetched");
    expect(result.stdout.match(/refused/g)).toHaveLength(2);
    expect(requestsSeen).toBe(0);
  });

  it("refuses writes outside its scratch directories and hides project files", async () => {
    const code = [
      "import os",
      "for path in ['/usr/tfgrpo-test', '/etc/tfgrpo-test', '/tfgrpo-test', '/dev/tfgrpo-test', '/proc/tfgrpo-test']:",
      "    try:",
      "        open(path, 'w').write('x')",
      "        print('WROTE', path)",
      "    except OSError as error:",
      "        print('denied', path, type(error).__name__)",
      "open('/scratch/ok.txt', 'w').write('fine')",
      "open('/tmp/ok.txt', 'w').write('fine')",
      "print('scratch', open('/scratch/ok.txt').read(), open('/tmp/ok.txt').read())",
      "print('visible', [p for p in ['/work', '/root', '/home', '/etc/passwd', '/var', '/opt'] if os.path.exists(p)])",
    ].join("\n");
    const result = await interpreter.run(code);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain("WROTE");
    expect(result.stdout.match(/^denied /gm)).toHaveLength(5);
    expect(result.stdout).toContain("scratch fine fine");
    expect(result.stdout).toContain("visible []");
  });

  it("keeps environment secrets invisible, including through /proc", async () => {
    process.env.TFGRPO_TEST_API_KEY = "sk-test-secret-do-not-leak-8f2a";
    try {
      const isolated = create({ uidPool, timeoutMs: 60_000 });
      const code = [
        "import os",
        "print(dict(os.environ))",
        "for pid in os.listdir('/proc'):",
        "    if pid.isdigit():",
        "        for name in ('environ', 'cmdline'):",
        "            try:",
        "                print(pid, name, open(f'/proc/{pid}/{name}', 'rb').read())",
        "            except OSError as error:",
        "                print(pid, name, 'denied')",
      ].join("\n");
      const result = await isolated.run(code);
      await isolated.close();
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain("'HOME': '/scratch'");
      expect(result.stdout + result.stderr).not.toContain("sk-test-secret");
      expect(result.stdout + result.stderr).not.toContain("TFGRPO_TEST_API_KEY");
    } finally {
      delete process.env.TFGRPO_TEST_API_KEY;
    }
  });

  it("stops a Python fork bomb at the process limit", async () => {
    const result = await interpreter.run("import os\nwhile True:\n    os.fork()");
    expect(result.killed).toBe(true);
    expect(result.killedReason).toBe("processes");
    expect(result.stderr).toContain("BlockingIOError");
  });

  it("stops a shell fork bomb and reports the process limit", async () => {
    const result = await impatient.run(
      "import subprocess, time\nsubprocess.run('bomb(){ bomb | bomb & }; bomb', shell=True)\ntime.sleep(1000)",
    );
    expect(result.killed).toBe(true);
    expect(result.killedReason).toBe("processes");
    expect(await sandboxProcesses()).toEqual([]);
  });

  it("stops a memory bomb at the memory limit", async () => {
    const result = await interpreter.run("blocks = []\nwhile True:\n    blocks.append(bytearray(10**7))");
    expect(result.killed).toBe(true);
    expect(result.killedReason).toBe("memory");
    expect(result.stderr).toContain("MemoryError");
  });

  // Where the machine lets us create cgroups (this one and CI do, as root), the sandbox as a whole has a memory
  // limit: processes that each stay under their own address-space limit still cannot add up past it.
  it.skipIf(!cgroupSupport?.memory)(
    "stops many processes that together exceed the sandbox memory",
    async () => {
      const together = create({
        uidPool,
        timeoutMs: 60_000,
        memoryMb: 256,
        totalMemoryMb: 300,
      });
      const code = [
        "import os",
        "children = []",
        "for _ in range(4):",
        "    pid = os.fork()",
        "    if pid == 0:",
        "        block = bytearray(150 * 1024 * 1024)",
        "        for i in range(0, len(block), 4096):",
        "            block[i] = 1",
        "        os._exit(0)",
        "    children.append(pid)",
        "print(sorted(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children))",
      ].join("\n");
      const result = await together.run(code);
      await together.close();
      expect(result).toMatchObject({ killed: true, killedReason: "memory", exitCode: 0 });
      expect(result.stdout).toContain("-9");
    },
  );

  it("stops an infinite loop at the wall-clock limit", async () => {
    const loop = create({ uidPool, timeoutMs: 2000, cpuSeconds: 60 });
    const result = await loop.run("while True:\n    pass");
    await loop.close();
    expect(result).toMatchObject({
      killed: true,
      killedReason: "timeout",
      exitCode: null,
      signal: "SIGKILL",
    });
  });

  it("stops a busy loop at the CPU limit", async () => {
    const cpu = create({ uidPool, timeoutMs: 60_000, cpuSeconds: 1 });
    const result = await cpu.run("while True:\n    pass");
    await cpu.close();
    expect(result).toMatchObject({ killed: true, killedReason: "cpu", signal: "SIGXCPU" });
  });

  it("stops `sleep 1000` at the wall-clock limit and leaves no process behind", async () => {
    const result = await impatient.run("import subprocess\nsubprocess.run(['sleep', '1000'])");
    expect(result).toMatchObject({ killed: true, killedReason: "timeout" });
    expect(await sandboxProcesses()).toEqual([]);
  });

  it("stops a 100 MB print at the output limit and keeps a capped head and tail", async () => {
    const result = await interpreter.run("print('x' * 100_000_000)");
    expect(result).toMatchObject({ killed: true, killedReason: "output_limit", truncated: { stdout: true } });
    expect(Buffer.byteLength(result.stdout)).toBeLessThan(20_000 + 200);
    expect(result.stdout).toMatch(/\[\.\.\. \d+ bytes truncated \.\.\.\]/);
  });

  it("stops a file larger than the file-size limit", async () => {
    const small = create({ uidPool, timeoutMs: 60_000, fileSizeMb: 1 });
    const result = await small.run("open('/scratch/big.bin', 'wb').write(b'x' * 5 * 1024 * 1024)");
    await small.close();
    expect(result).toMatchObject({ killed: true, killedReason: "file_size", exitCode: 1 });
    expect(result.stderr).toContain("File too large");
  });

  it("still runs code normally after all of that", async () => {
    const result = await interpreter.run("import sympy\nprint(sympy.factorint(2**32 + 1))");
    expect(result).toMatchObject({ exitCode: 0, killed: false, stdout: "{641: 1, 6700417: 1}\n" });
  });
});
