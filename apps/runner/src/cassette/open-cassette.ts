import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Cassette, recordCassette, replayCassette } from "@tfgrpo/models";
import { readUserTextSync, safeParseJson, TfgrpoError } from "@tfgrpo/protocol";
import { z } from "zod";

/** Beside the exchanges: what a replay needs to ask the same questions (the run id seeds sampling). */
const manifestSchema = z.object({
  command: z.string(),
  runId: z.string(),
  /** The models config the run used, copied into the cassette (names of key variables only, never keys). */
  models: z.string().nullable(),
  recordedAt: z.string(),
});
export type CassetteManifest = z.infer<typeof manifestSchema>;

export interface OpenCassetteOptions {
  command: string;
  record?: string | undefined;
  replay?: string | undefined;
  /** The run's id: recorded in the manifest; on replay, given ids must match the recorded one. */
  runId?: string | undefined;
  /** The models config: copied into a recording; on replay, the recording's copy is used when none is given. */
  config?: string | undefined;
  /** Told of a request the recording has no answer for; the command should stop. */
  onMiss?: (error: TfgrpoError) => void;
  now?: () => Date;
  env?: Record<string, string | undefined>;
}

export interface OpenedCassette {
  cassette: Cassette;
  /** The run id to use (the recorded one on replay). */
  runId: string | undefined;
  /** The models config to use (the recorded copy on replay when none was given). */
  config: string | undefined;
  /** Record mode: writes the manifest once the run id is known. */
  finish(runId: string): void;
}

/**
 * `--record DIR` / `--replay DIR` of a command: the models' cassette plus a manifest (command, run id, a copy of the
 * models config). A replay takes the recorded run id (sampling seeds derive from it, so the same requests are asked)
 * and, unless told otherwise, the recorded models config: it runs with no provider reachable at all.
 */
export function openCassette(options: OpenCassetteOptions): OpenedCassette | undefined {
  if (options.record && options.replay) {
    throw new TfgrpoError(
      "invalid_input",
      `${options.command}: --record and --replay cannot be used together`,
      {
        details: { field: "record" },
      },
    );
  }
  if (options.record) {
    const directory = path.resolve(options.record);
    mkdirSync(directory, { recursive: true });
    if (existsSync(path.join(directory, "manifest.json"))) {
      throw new TfgrpoError(
        "invalid_input",
        `--record ${options.record}: already holds a recording; record into an empty directory`,
        { details: { field: "record", directory } },
      );
    }
    const cassette = recordCassette(directory);
    let models: string | null = null;
    if (options.config && existsSync(options.config)) {
      models = path.basename(options.config);
      writeFileSync(
        path.join(directory, models),
        pinVariables(
          readUserTextSync(options.config, { what: "models config", code: "invalid_config" }),
          options.env ?? process.env,
        ),
      );
    }
    return {
      cassette,
      runId: options.runId,
      config: options.config,
      finish: (runId) => {
        const manifest: CassetteManifest = {
          command: options.command,
          runId,
          models,
          recordedAt: (options.now?.() ?? new Date()).toISOString(),
        };
        writeFileSync(path.join(directory, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
      },
    };
  }
  if (options.replay) {
    const directory = path.resolve(options.replay);
    const manifestFile = path.join(directory, "manifest.json");
    if (!existsSync(manifestFile)) {
      throw new TfgrpoError(
        "invalid_input",
        `--replay ${options.replay}: no recording there (${manifestFile} is missing)`,
        {
          details: { field: "replay", file: manifestFile },
        },
      );
    }
    const manifest = safeParseJson(
      readUserTextSync(manifestFile, { what: "cassette manifest", option: "--replay" }),
      manifestSchema,
    );
    if (!manifest.success) {
      throw new TfgrpoError("invalid_input", `${manifestFile}: not a cassette manifest (${manifest.error})`, {
        details: { field: "replay", file: manifestFile },
      });
    }
    const recorded = manifest.value;
    if (options.runId !== undefined && options.runId !== recorded.runId) {
      throw new TfgrpoError(
        "invalid_input",
        `--replay ${options.replay}: recorded as run ${recorded.runId}; --run-id ${options.runId} would ask other questions (seeds derive from the run id)`,
        { details: { field: "run-id" } },
      );
    }
    const cassette = replayCassette(directory, options.onMiss ? { onMiss: options.onMiss } : {});
    return {
      cassette,
      runId: recorded.runId,
      config: options.config ?? (recorded.models ? path.join(directory, recorded.models) : undefined),
      finish: () => {},
    };
  }
  return undefined;
}

/**
 * The config as the recorded run read it: `${VAR}` replaced by the value it had (the sim's port, a host name), so a
 * replay in another shell asks the same paths. Variables named like secrets, and values that look like keys, are
 * left as they are: a cassette never holds a key.
 */
function pinVariables(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (match, name: string, fallback?: string) => {
      if (/key|token|secret|password|auth/i.test(name)) return match;
      const value = env[name] || fallback;
      return value !== undefined && /^[\w.:/@-]{1,100}$/.test(value) && !/^(sk|pk|dsk)-/.test(value)
        ? value
        : match;
    },
  );
}
