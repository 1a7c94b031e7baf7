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

function recordChanges(changes: StateChange[], limits: EnvironmentRecordLimits): EnvironmentRecord {
  const kept = redactJson(changes.slice(0, limits.maxDiffEntries), limits.redact)
    .value as EnvironmentRecord["diff"];
  return {
    diff: Array.isArray(kept) ? kept : [],
    ...(changes.length > limits.maxDiffEntries ? { diffTruncated: true } : {}),
    finalStateOmitted: true,
  };
}

/** What a trajectory keeps of its environment: the diff from the state after reset, and the final state if small. */
export function recordEnvironment(
  initial: unknown,
  final: unknown,
  limits: EnvironmentRecordLimits,
): EnvironmentRecord {
  const diff = diffStates(initial, final);
  const kept = redactJson(diff.slice(0, limits.maxDiffEntries), limits.redact)
    .value as EnvironmentRecord["diff"];
  const state = redactJson(final, limits.redact);
  return {
    diff: Array.isArray(kept) ? kept : [],
    ...(diff.length > limits.maxDiffEntries ? { diffTruncated: true } : {}),
    ...(state.chars <= limits.maxStateChars ? { finalState: state.value } : { finalStateOmitted: true }),
  };
}
