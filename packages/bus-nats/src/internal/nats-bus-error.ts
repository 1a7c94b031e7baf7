import { TfgrpoError } from "@tfgrpo/protocol";

function errorName(error: unknown): string {
  return error instanceof Error ? error.name || error.constructor.name : "";
}

export function isNoResponders(error: unknown): boolean {
  const candidate = error as { isNoResponders?: () => boolean; cause?: unknown } | undefined;
  if (typeof candidate?.isNoResponders === "function" && candidate.isNoResponders()) return true;
  const names = [errorName(error), errorName(candidate?.cause)];
  return names.includes("NoResponders") || names.includes("NoRespondersError");
}

function isTimeout(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return errorName(error) === "TimeoutError" || errorName(cause) === "TimeoutError";
}

function isClosed(error: unknown): boolean {
  const name = errorName(error);
  return name === "ClosedConnectionError" || name === "DrainingConnectionError";
}

/**
 * A NATS client error as a TfgrpoError with the Bus's codes: no responders -> not_found, timeout -> bus_timeout,
 * closed or draining connection -> bus_closed, anything else -> remote_error. Errors are recognised by name
 * (not instanceof) because the client's classes may come from another copy of the package.
 */
export function toBusError(error: unknown, where: string, timeoutMs?: number): TfgrpoError {
  if (TfgrpoError.isInstance(error)) return error;
  if (isNoResponders(error)) {
    return new TfgrpoError("not_found", `${where}: no handler is serving this subject`, { cause: error });
  }
  if (isTimeout(error)) {
    const within = timeoutMs === undefined ? "in time" : `within ${timeoutMs} ms`;
    return new TfgrpoError("bus_timeout", `${where}: no reply ${within}`, { cause: error });
  }
  if (isClosed(error)) {
    return new TfgrpoError("bus_closed", `${where}: the NATS connection is closed`, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new TfgrpoError("remote_error", `${where}: ${message}`, { cause: error });
}
