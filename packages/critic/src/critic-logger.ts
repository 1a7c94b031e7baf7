/** The logging surface the critic needs; any structured logger (pino, console) fits. */
export interface CriticLogger {
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
}
