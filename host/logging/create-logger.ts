import { pino } from 'pino';
import type { Logger } from '../../core/kernel/logger.js';
import { redactLogObject } from '../../core/security/log-redaction.js';

/**
 * pino JSON logs on stdout (or a given stream), with every secret field and credential
 * header redacted (log-redaction.ts), in a line's fields and in a child logger's bindings,
 * so a token or password never reaches a log line.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream | pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = { level, base: { service: 'flowhost' }, formatters: { log: redactLogObject } };
  const logger = destination ? pino(options, destination as pino.DestinationStream) : pino(options);
  // pino applies a bindings formatter to the root's base only, so children are redacted
  // here. A child is created from its parent's prototype chain, so this one override
  // covers children of children too.
  type Child = (this: unknown, bindings: pino.Bindings, options?: pino.ChildLoggerOptions) => unknown;
  const child = logger.child as Child;
  (logger as { child: Child }).child = function redactedChild(bindings, childOptions) {
    return child.call(this, redactLogObject(bindings), childOptions);
  };
  return logger as unknown as Logger;
}
