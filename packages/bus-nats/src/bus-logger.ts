/** Where a Bus reports what it cannot throw to a caller: a dropped connection, a retried publish, a bad message. */
export interface BusLogger {
  info?(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Warnings and errors to stderr, one line each; info is dropped (a library should not chatter). */
export const stderrBusLogger: BusLogger = {
  warn: (message) => process.stderr.write(`[tfgrpo bus] warn: ${message}\n`),
  error: (message) => process.stderr.write(`[tfgrpo bus] error: ${message}\n`),
};
