import { diffStates, type EnvironmentRecord, type StateChange } from "@tfgrpo/protocol";

export interface EnvironmentRecordLimits {
  /** A final state whose JSON is longer is not stored (the diff still is). */
  maxStateChars: number;
  /** Changes stored at most. */
  maxDiffEntries: number;
  redact: (text: string) => string;
}

/** Passes a JSON value's text through the redactor; a value the redactor would break is stored as its text. */
function redactJson(value: unknown, redact: (text: string) => string): { value: unknown; chars: number } {
  const text = JSON.stringify(value) ?? "null";
  const redacted = redact(text);
  if (redacted === text) return { value, chars: text.length };
  try {
    return { value: JSON.parse(redacted), chars: redacted.length };
  } catch {
    return { value: redacted, chars: redacted.length };
  }
}

/** An attempt's environment as a toolset carries it (`@tfgrpo/tools` AttemptEnvironment). */
export interface RecordableEnvironment {
  initialState: unknown;
  state(): Promise<unknown>;
  changes?(): Promise<StateChange[]>;
}

/**
 * The record of an attempt's environment at its end: from the servers' own changes when they report them (the final
 * state is then not read, nor stored), else from the state now against the state after the reset.
 */
export async function recordAttemptEnvironment(
  environment: RecordableEnvironment,
  limits: EnvironmentRecordLimits,
): Promise<EnvironmentRecord> {
  if (environment.changes) return recordChanges(await environment.changes(), limits);
  return recordEnvironment(environment.initialState, await environment.state(), limits);
}

/** The stored part of a diff: its first `maxDiffEntries` changes, redacted, and whether more were left out. */
function keptChanges(
  changes: StateChange[],
  limits: EnvironmentRecordLimits,
): Pick<EnvironmentRecord, "diff" | "diffTruncated"> {
  const kept = redactJson(changes.slice(0, limits.maxDiffEntries), limits.redact)
    .value as EnvironmentRecord["diff"];
  return {
    diff: Array.isArray(kept) ? kept : [],
    ...(changes.length > limits.maxDiffEntries ? { diffTruncated: true } : {}),
  };
}

function recordChanges(changes: StateChange[], limits: EnvironmentRecordLimits): EnvironmentRecord {
  return { ...keptChanges(changes, limits), finalStateOmitted: true };
}

/** What a trajectory keeps of its environment: the diff from the state after reset, and the final state if small. */
export function recordEnvironment(
  initial: unknown,
  final: unknown,
  limits: EnvironmentRecordLimits,
): EnvironmentRecord {
  const state = redactJson(final, limits.redact);
  return {
    ...keptChanges(diffStates(initial, final), limits),
    ...(state.chars <= limits.maxStateChars ? { finalState: state.value } : { finalStateOmitted: true }),
  };
}
