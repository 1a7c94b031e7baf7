/**
 * The one error class of tfgrpo. Errors cross package copies, processes and the Bus, so callers check them with
 * `TfgrpoError.isInstance(error)` (a marker on the object), never with `instanceof`.
 */
export const errorCodes = {
  invalidInput: "invalid_input",
  invalidDataset: "invalid_dataset",
  invalidConfig: "invalid_config",
  notFound: "not_found",
  conflict: "conflict",
  invalidOperations: "invalid_operations",
  busTimeout: "bus_timeout",
  busClosed: "bus_closed",
  remote: "remote_error",
  budgetExceeded: "budget_exceeded",
  model: "model_error",
  tool: "tool_error",
  sandbox: "sandbox_unavailable",
  /** An attempt's environment (a stateful MCP server) crashed, hung or failed its reset: infrastructure. */
  environment: "environment_unavailable",
  /** The database's disk is full, read-only or failing: never retried blindly. */
  storage: "storage_error",
  /** A client sent more requests than its rate limit allows (the message names the limit and when to retry). */
  rateLimited: "rate_limited",
  /** A client token that is not among the configured ones. */
  unauthorized: "unauthorized",
  internal: "internal",
} as const;

export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];

const marker = Symbol.for("tfgrpo.error");

export class TfgrpoError extends Error {
  readonly [marker] = true;
  readonly code: ErrorCode;
  /** Structured details (file, line, field, ids...) a caller or a test can read without parsing the message. */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "TfgrpoError";
    this.code = code;
    this.details = options.details;
  }

  static isInstance(error: unknown): error is TfgrpoError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }

  static hasCode(error: unknown, code: ErrorCode): error is TfgrpoError {
    return TfgrpoError.isInstance(error) && error.code === code;
  }

  /** Plain form for the Bus: an error thrown in a worker is rebuilt on the caller's side. */
  toJSON(): SerializedError {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }

  static fromJSON(value: SerializedError): TfgrpoError {
    const code = (Object.values(errorCodes) as string[]).includes(value.code)
      ? (value.code as ErrorCode)
      : "remote_error";
    return new TfgrpoError(code, value.message, { details: value.details });
  }
}

export interface SerializedError {
  name: string;
  code: string;
  message: string;
  details?: Record<string, unknown> | undefined;
}

/** Any thrown value as a SerializedError (unknown errors keep only their message). */
export function serializeError(error: unknown): SerializedError {
  if (TfgrpoError.isInstance(error)) return error.toJSON();
  const message = error instanceof Error ? error.message : String(error);
  return { name: "Error", code: errorCodes.internal, message };
}
