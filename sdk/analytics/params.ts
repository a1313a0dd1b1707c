/** Filling in and checking the parameters a JSON Schema cannot fully check (real dates, their order). */
import type { ToolCatalogueEntry } from './catalogue.js';
import { daysAgo, isRealDate } from './dates.js';
import { invalidParameter } from './errors.js';

/** start_date/end_date with the spec's defaults (days before today, UTC); a start after the end is refused. */
export function dateRange(
  entry: ToolCatalogueEntry,
  args: Record<string, unknown>,
  now: Date,
  defaults: { startDaysAgo: number; endDaysAgo: number },
): { start_date: string; end_date: string } {
  const start = typeof args.start_date === 'string' ? args.start_date : daysAgo(now, defaults.startDaysAgo);
  const end = typeof args.end_date === 'string' ? args.end_date : daysAgo(now, defaults.endDaysAgo);
  for (const [name, value] of [
    ['start_date', start],
    ['end_date', end],
  ] as const) {
    if (!isRealDate(value)) throw invalidParameter(entry, `${name} '${value}' is not a date (YYYY-MM-DD).`);
  }
  if (start > end) throw invalidParameter(entry, `start_date ${start} is after end_date ${end}.`);
  return { start_date: start, end_date: end };
}

export function limitOf(args: Record<string, unknown>, fallback: number): number {
  return typeof args.limit === 'number' ? args.limit : fallback;
}

export function textOf(args: Record<string, unknown>, name: string): string | undefined {
  return typeof args[name] === 'string' && args[name] !== '' ? (args[name] as string) : undefined;
}

/** A parameter the action cannot do without. */
export function requireParam(entry: ToolCatalogueEntry, action: string, args: Record<string, unknown>, name: string): string {
  const value = textOf(args, name);
  if (value === undefined) throw invalidParameter(entry, `${action} needs ${name}.`);
  return value;
}
