/**
 * A separate OS process working on the same SQLite file as the test that spawns it (sqlite-store.int.test.ts):
 * `node --conditions=source --import tsx concurrent-store.child.ts '<json config>'`. It prints one JSON message per
 * line on stdout ({"ready"}, then its results) and waits for "go" on stdin, so several children start together.
 */
import { createInterface } from "node:readline";
import { safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";
import { SqliteStore } from "./sqlite-store.js";

const configSchema = z.object({
  mode: z.enum(["apply-once", "apply-loop", "read-loop"]),
  db: z.string(),
  domain: z.string(),
  name: z.string(),
  state: z.enum(["proposed", "committed"]).default("committed"),
  count: z.number().int().positive().default(1),
});

const parsed = safeParseJson(process.argv[2] ?? "", configSchema);
if (!parsed.success) throw new Error(`bad child config: ${parsed.error}`);
const config = parsed.value;
const send = (message: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(message)}\n`);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const nextLine = async () => (await lines.next()).value as string | undefined;

const store = new SqliteStore({ path: config.db });
await store.setup();

if (config.mode === "apply-once") {
  // Read the head first, then apply on it only when told: both children then race on the same parent.
  const parent = await store.getHeadVersion(config.domain);
  send({ ready: true, parent });
  await nextLine();
  try {
    const result = await store.applyOperations(
      config.domain,
      [{ op: "add", text: `from ${config.name}`, reason: "concurrency test" }],
      { parent, state: config.state },
    );
    send({ ok: true, version: result.version.version, createdIds: result.createdIds });
  } catch (error) {
    send({
      ok: false,
      code: TfgrpoError.isInstance(error) ? error.code : "unexpected",
      message: String(error),
    });
  }
} else if (config.mode === "apply-loop") {
  send({ ready: true });
  await nextLine();
  const applied: Array<{ version: number; parent: number | null; createdIds: string[] }> = [];
  let conflicts = 0;
  const failures: string[] = [];
  for (let i = 0; i < config.count; i++) {
    // Optimistic loop: read the head, apply on it, and on "conflict" (someone committed in between) read again.
    for (;;) {
      const parent = await store.getHeadVersion(config.domain);
      try {
        const result = await store.applyOperations(
          config.domain,
          [
            { op: "add", text: `${config.name} #${i} a`, reason: "loop" },
            { op: "add", text: `${config.name} #${i} b`, reason: "loop" },
          ],
          { parent, state: "committed" },
        );
        applied.push({ version: result.version.version, parent, createdIds: result.createdIds });
        break;
      } catch (error) {
        if (TfgrpoError.hasCode(error, "conflict")) {
          conflicts++;
          continue;
        }
        failures.push(String(error));
        break;
      }
    }
  }
  send({ done: true, applied, conflicts, failures });
} else {
  send({ ready: true });
  await nextLine();
  let stop = false;
  void nextLine().then(() => {
    stop = true;
  });
  let reads = 0;
  const versions = new Set<number>();
  const violations: string[] = [];
  while (!stop) {
    const head = await store.getHead(config.domain);
    if (head) {
      reads++;
      versions.add(head.version);
      const texts = new Set(head.experiences.map((e) => e.text));
      if (texts.size !== 1 || !texts.has(`rev ${head.version}`)) {
        violations.push(`v${head.version}: ${[...texts].slice(0, 3).join(" | ")}`);
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  send({
    done: true,
    reads,
    versions: [...versions].sort((a, b) => a - b),
    violations: violations.slice(0, 10),
  });
}
await store.close();
process.exit(0);
