// A logger that keeps every line (fields and message, as JSON), so a test can scan what a
// host wrote for secrets.
import type { Logger } from '../../core/kernel/logger.js';

export function captureLogger(lines: string[] = [], bindings: Record<string, unknown> = {}): Logger & { lines: string[] } {
  const write = (fieldsOrMessage: Record<string, unknown> | string, message?: string) => {
    const fields = typeof fieldsOrMessage === 'string' ? {} : fieldsOrMessage;
    const text = typeof fieldsOrMessage === 'string' ? fieldsOrMessage : (message ?? '');
    lines.push(
      JSON.stringify({ ...bindings, ...fields, msg: text }, (_k, v: unknown) =>
        v instanceof Error ? { message: v.message, stack: v.stack } : v,
      ),
    );
  };
  return {
    lines,
    trace: write,
    debug: write,
    info: write,
    warn: write,
    error: write,
    child: (more) => captureLogger(lines, { ...bindings, ...more }),
  } as Logger & { lines: string[] };
}
