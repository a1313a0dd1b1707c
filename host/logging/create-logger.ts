import { pino } from 'pino';
import type { Logger } from '../../core/kernel/logger.js';
import { SECRET_LOG_PATHS } from '../../core/security/mask.js';

/**
 * pino JSON logs on stdout (or a given stream), with every secret-bearing path redacted
 * so a token or password never reaches a log line.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = { level, base: { service: 'flowhost' }, redact: { paths: [...SECRET_LOG_PATHS], censor: '[redacted]' } };
  const logger = destination ? pino(options, destination as unknown as pino.DestinationStream) : pino(options);
  return logger as unknown as Logger;
}
