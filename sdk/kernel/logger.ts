/** The logging surface plugins and services get (pino-compatible subset). */
export interface LogFn {
  (message: string): void;
  (fields: Record<string, unknown>, message?: string): void;
}

export interface Logger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that drops everything; for tests and tools that print their own output. */
export const silentLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
