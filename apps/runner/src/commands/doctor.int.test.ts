import { mkdirSync, readdirSync, symlinkSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { type TemporaryDirectory, temporaryDirectory } from "@tfgrpo/protocol/testing";
import { startPostgresServer } from "@tfgrpo/store/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../testing/index.js";

// Real parts: this machine's python3, bubblewrap, nats-server and Chromium (scripts/bootstrap.sh installs them) and a
// real PostgreSQL server.
interface DoctorJson {
  ok: boolean;
  checks: { name: string; status: string; required: boolean; detail: string; install?: string }[];
}

let temporary: TemporaryDirectory;
beforeAll(async () => {
  temporary = await temporaryDirectory("tfgrpo-doctor-");
});
afterAll(() => temporary?.[Symbol.asyncDispose]());

/** A directory for PATH with links to everything the current PATH reaches except `leftOut` (the first one wins). */
function pathWithout(leftOut: string): string {
  const directory = path.join(temporary.path, `path-without-${leftOut}`);
  mkdirSync(directory);
  const linked = new Set<string>();
  for (const from of (process.env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    let names: string[] = [];
    try {
      names = readdirSync(from);
    } catch {
      // A PATH entry that does not exist.
    }
    for (const name of names.filter((name) => name !== leftOut && !linked.has(name))) {
      linked.add(name);
      symlinkSync(path.join(from, name), path.join(directory, name));
    }
  }
  return directory;
}

function check(report: DoctorJson, name: string) {
  const found = report.checks.find((entry) => entry.name === name);
  if (!found) throw new Error(`doctor reported no ${name}: ${JSON.stringify(report)}`);
  return found;
}

it("on this machine (bootstrapped) finds everything required and exits 0", async () => {
  const run = await runCli(["doctor"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const lines = run.stdout.trimEnd().split("\n");
  for (const name of ["node", "python3", "bubblewrap", "sandbox", "nats-server", "chromium"])
    expect(lines.find((line) => line.split(/\s+/)[1] === name)).toMatch(/^ok /);
  expect(lines.find((line) => line.split(/\s+/)[1] === "postgresql")).toMatch(
    /^skipped .*no --db postgres:.*optional/,
  );
  // Node 22's agent SDKs: one optional line, a warning on Node 20 (this machine), never a failure.
  expect(lines.find((line) => line.split(/\s+/)[1] === "agent-sdks")).toMatch(
    process.version.startsWith("v20.") ? /^warn .*need Node 22\.13\.0 — optional/ : /^(ok|warn) /,
  );
  expect(lines.at(-1)).toBe("tfgrpo doctor: everything required is here");
}, 60_000);

it("without bubblewrap on PATH names it and how to install it, and exits non-zero", async () => {
  const run = await runCli(["doctor"], { env: { PATH: pathWithout("bwrap") } });
  expect(run.code).toBe(1);
  const line = run.stdout.split("\n").find((text) => text.split(/\s+/)[1] === "bubblewrap");
  expect(line).toMatch(/^missing bubblewrap +no bwrap on PATH — required: .*sudo apt-get install bubblewrap/);
  expect(line).toContain("macOS: none, bubblewrap is Linux-only");
  expect(run.stdout).toMatch(/^skipped sandbox /m);
  expect(run.stdout.trimEnd().split("\n").at(-1)).toBe(
    "tfgrpo doctor: missing what commands need: bubblewrap, sandbox",
  );

  const json = await runCli(["doctor", "--json"], { env: { PATH: pathWithout("nats-server") } });
  // An optional part missing is said, and is no failure.
  expect(json.code).toBe(0);
  const report = JSON.parse(json.stdout) as DoctorJson;
  expect(report.ok).toBe(true);
  expect(check(report, "nats-server")).toMatchObject({ status: "missing", required: false });
  expect(check(report, "nats-server").install).toContain("sudo apt-get install nats-server");
  expect(check(report, "bubblewrap")).toMatchObject({ status: "ok", required: true });
}, 60_000);

it("with --db postgres://... connects to it: required then, and a refused connection fails", async () => {
  await using postgres = await startPostgresServer();
  const url = await postgres.createDatabase();
  const reached = JSON.parse((await runCli(["doctor", "--json", "--db", url])).stdout) as DoctorJson;
  expect(check(reached, "postgresql")).toMatchObject({ status: "ok", required: true });
  expect(check(reached, "postgresql").detail).not.toContain(postgres.password);

  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const refused = await runCli(["doctor", "--db", `postgres://u:secret@127.0.0.1:${port}/x`]);
  expect(refused.code).toBe(1);
  const line = refused.stdout.split("\n").find((text) => text.split(/\s+/)[1] === "postgresql");
  expect(line).toMatch(
    /^missing postgresql +cannot reach PostgreSQL at 127\.0\.0\.1:\d+: connection refused/,
  );
  expect(line).toContain("sudo apt-get install postgresql");
  expect(refused.stdout).not.toContain("secret");
}, 120_000);
