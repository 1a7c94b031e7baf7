import { TfgrpoError } from "@tfgrpo/protocol";

/** A run-state value as the JSON text every backend stores; a value JSON cannot hold is refused, naming the key. */
export function runStateJson(runId: string, key: string, value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new TfgrpoError(
      "invalid_input",
      `run state ${runId}/${key}: not JSON: ${(error as Error).message}`,
      {
        details: { runId, key },
      },
    );
  }
  if (json === undefined) {
    throw new TfgrpoError("invalid_input", `run state ${runId}/${key}: value is not JSON (undefined)`, {
      details: { runId, key },
    });
  }
  return json;
}
