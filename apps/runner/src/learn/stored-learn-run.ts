import { TfgrpoError } from "@tfgrpo/protocol";
import { createStore, redactUrl } from "@tfgrpo/store";
import { type LearnOptions, learnOptionsSchema } from "./learn-options.js";

/** `learn --resume RUN`: the run's stored options, ablation and models config, once it is known to be a learning run. */
export async function storedLearnRun(
  db: string,
  runId: string,
): Promise<{
  options: LearnOptions | null;
  ablation: unknown;
  models: string | null;
  agent: string | null;
  /** The task files the run was started with (settings are found beside them again). */
  data: { train?: string; val?: string };
}> {
  const store = await createStore(db, { mustExist: true });
  try {
    const run = await store.getRun(runId);
    // Checked first: a run that is not there (or is not a learning run) is said in one line, before a models config
    // is asked for, a world is started or a trace file is opened.
    if (!run)
      throw new TfgrpoError("not_found", `learn --resume ${runId}: no run ${runId} in ${redactUrl(db)}`, {
        details: { field: "resume", runId },
      });
    if (run.kind !== "learn")
      throw new TfgrpoError(
        "invalid_input",
        `learn --resume ${runId}: run ${runId} is a${/^[aeiou]/.test(run.kind) ? "n" : ""} ${run.kind} run, not a learning run`,
        { details: { field: "resume", runId, kind: run.kind } },
      );
    const parsed = learnOptionsSchema.safeParse(run.config.options);
    return {
      options: parsed.success ? parsed.data : null,
      ablation: run.config.ablation,
      models: typeof run.config.models === "string" ? run.config.models : null,
      // The team's agent module the run was started with (`learn --agent`): a resumed run keeps it.
      agent: typeof run.config.agent === "string" ? run.config.agent : null,
      data: storedData(run.config.data),
    };
  } finally {
    await store.close();
  }
}

function storedData(value: unknown): { train?: string; val?: string } {
  if (typeof value !== "object" || value === null) return {};
  const { train, val } = value as Record<string, unknown>;
  return {
    ...(typeof train === "string" ? { train } : {}),
    ...(typeof val === "string" ? { val } : {}),
  };
}
