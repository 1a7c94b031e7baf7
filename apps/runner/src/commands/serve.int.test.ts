import path from "node:path";
import { createNatsBus } from "@tfgrpo/bus-nats";
import { startNatsServer } from "@tfgrpo/bus-nats/testing";
import type { JobResult } from "@tfgrpo/protocol";
import { eventually } from "@tfgrpo/protocol/testing";
import { expect, it } from "vitest";
import { echoJob, echoRequest } from "../../test/fixtures/echo-role.js";
import { repositoryRoot, spawnCli } from "../testing/spawn-cli.js";
import { startRoleWorker } from "../testing/start-role-worker.js";

const fixture = path.resolve(repositoryRoot, "apps/runner/test/fixtures/echo-role.ts");
const env = { TFGRPO_NATS_URL: "" };

it("tfgrpo serve works a role's jobs over NATS, one line per job, and finishes the job in flight on SIGTERM", async () => {
  await using server = await startNatsServer();
  await using worker = await startRoleWorker(
    "echo",
    ["--module", fixture, "--nats", server.url, "--concurrency", "2", "--config", "examples/models.sim.yaml"],
    { env, readyTimeoutMs: 45_000 },
  );
  const runner = await createNatsBus({ servers: server.url, name: "serve-test" });
  try {
    await expect(runner.request(echoRequest, { text: "ping" })).resolves.toEqual({ text: "PING" });
    const results: JobResult<{ text: string; concurrency: number | null }>[] = [];
    await runner.consumeResults(echoJob, "run-1", async (result) => {
      results.push(result);
    });
    await runner.enqueue(
      echoJob,
      [
        { id: "a", input: { text: "a", ms: 0 } },
        { id: "b", input: { text: "fail", ms: 0 } },
      ],
      { replyTo: "run-1" },
    );
    await eventually("two results", () => results.length === 2);
    expect(results.find((result) => result.jobId === "a")).toMatchObject({
      ok: true,
      output: { text: "a", concurrency: 2 },
    });
    expect(results.find((result) => result.jobId === "b")).toMatchObject({
      ok: false,
      error: { message: "asked to fail" },
    });

    await runner.enqueue(echoJob, [{ id: "long", input: { text: "long", ms: 1500 } }], {
      replyTo: "run-1",
    });
    await eventually("the long job to start", () =>
      worker.output.stdout.includes("job-start tfgrpo.echo.job job=long"),
    );
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    await eventually("the long job's result", () => results.length === 3);
    expect(results[2]).toMatchObject({ jobId: "long", ok: true, attempt: 1 });
    const lines = worker.output.stdout.trim().split("\n");
    expect(
      lines.filter((line) => / job-end tfgrpo\.echo\.job job=\w+ attempt=1 (ok|failed) /.test(line)),
    ).toHaveLength(3);
    expect(worker.output.stdout).toMatch(
      /job-end tfgrpo\.echo\.job job=b attempt=1 failed \d+ms internal: asked to fail/,
    );
    expect(worker.output.stderr).toMatch(/SIGTERM: finishing 1 in-flight job/);
  } finally {
    await runner.close();
  }
});

it("tfgrpo serve with an unknown role fails with the known roles listed", async () => {
  const run = spawnCli(["serve", "--role", "nosuch", "--nats", "nats://127.0.0.1:1"], { env });
  expect(await run.exited).toBe(1);
  expect(run.output.stderr).toMatch(/^tfgrpo: unknown role "nosuch"; known roles: /);
});
