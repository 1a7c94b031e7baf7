import { artifactDirectory } from "../cli-options/artifact-directory.js";
import { readTraceFile } from "../tracing/read-trace-file.js";
import { renderTraceTree } from "../tracing/render-trace-tree.js";
import { traceFileFor } from "../tracing/start-tracing.js";
import { resolveDatabase } from "./library.js";
import type { TraceCommandOptions } from "./trace-command-options.js";

export type { TraceCommandOptions };

/** `tfgrpo trace <run>`: the run's spans as an indented tree. */
export async function trace(run: string, options: TraceCommandOptions): Promise<void> {
  const file = options.file ?? traceFileFor(artifactDirectory(resolveDatabase(options)), run);
  const spans = await readTraceFile(file);
  process.stdout.write(
    renderTraceTree(spans, {
      ...(options.step === undefined ? {} : { step: options.step }),
      ...(options.rollout === undefined ? {} : { rollout: options.rollout }),
    }),
  );
}
