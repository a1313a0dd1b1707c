import type { Logger } from '../kernel/logger.js';
import type { Principal } from '../kernel/principal.js';
import type { LogEntryInput } from './model.js';

/**
 * Who changed what: each domain that holds configuration (pipelines, flows, webhooks)
 * calls this from the one method that makes each change, with the acting user. Messages
 * and contexts name the fields changed, never their values (settings may hold secrets).
 */
export type ChangeLog = (by: Principal | null | undefined, message: string, context: Record<string, unknown>) => Promise<void>;

/** A change log that writes nothing (until a domain's plugin attaches the real one). */
export const noChangeLog: ChangeLog = async () => undefined;

/** "admin (user 1)", or "the system" when nobody acted (a start-up sweep, a migration). */
export function actorOf(by: Principal | null | undefined): string {
  return by ? `${by.login} (user ${by.userId})` : 'the system';
}

/** The change log of a host: the searchable log (at info) and the process log. */
export function changeLog(logs: { record(entry: LogEntryInput): Promise<unknown> }, logger: Logger): ChangeLog {
  return async (by, message, context) => {
    const full = { ...context, user_login: by?.login ?? null };
    const text = `${message} by ${actorOf(by)}`;
    logger.info({ ...full, user_id: by?.userId ?? null }, text);
    // The change is made: a log entry that cannot be stored must not answer it as failed.
    await logs
      .record({ level: 'info', message: text, context: full, user_id: by?.userId ?? null })
      .catch((error: unknown) => logger.error({ err: error }, 'A log entry could not be stored'));
  };
}
