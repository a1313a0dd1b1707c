/**
 * Site-local wall times. An event's schedule is stored as the site's wall-clock time
 * (`YYYY-MM-DD HH:MM:SS`, WordPress's post meta convention), so grouping by day needs no
 * conversion at all: the day is the first ten characters. Only "now" has to be turned into
 * the site's wall time, with Intl (no time-zone library needed).
 */

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A wall time normalized to `YYYY-MM-DD HH:MM:SS`, or null when it is not a real date and time. */
export function parseLocal(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = LOCAL.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h = '00', mi = '00', s = '00'] = m.slice(1) as string[];
  if (!isRealDay(Number(y), Number(mo), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return `${y}-${mo}-${d} ${h}:${mi}:${s}`;
}

function isRealDay(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** `YYYY-MM-DD` that is a real calendar day. */
export function isDay(value: string): boolean {
  const m = DAY.exec(value);
  return !!m && isRealDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** The day after / before `day` (both `YYYY-MM-DD`). */
export function addDays(day: string, count: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

/** Days from `from` to `to` inclusive (empty when to < from), capped so a bad year-long event cannot blow up a page. */
export function daysBetween(from: string, to: string, cap = 366): string[] {
  const out: string[] = [];
  for (let day = from; day <= to && out.length < cap; day = addDays(day, 1)) out.push(day);
  return out;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * True when Intl knows the zone name (checked once at start-up, so a typo stops the host).
 * UTC, the default, is known without asking: a process's first Intl time-zone lookup builds
 * its zone data, about 20 ms of every start (3 December, docs/performance.md).
 */
export function isTimeZone(zone: string): boolean {
  if (zone === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The instant as the site's wall time, `YYYY-MM-DD HH:MM:SS`. */
export function wallTime(instant: Date, zone: string): string {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

// Made on first use: a process's first Intl.DateTimeFormat loads ICU's calendar data, about
// 10 ms of every start, though only the calendar's pages format days.
let dayLabelFormat: Intl.DateTimeFormat | undefined;
let shortDayFormat: Intl.DateTimeFormat | undefined;
const dayLabel = () =>
  (dayLabelFormat ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }));
const shortDay = () =>
  (shortDayFormat ??= new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }));

/** "Monday 2 March 2026" for a `YYYY-MM-DD` day (the day is already site-local). */
export function longDay(day: string): string {
  return dayLabel()
    .format(new Date(`${day}T00:00:00Z`))
    .replace(',', '');
}

export function mediumDay(day: string): string {
  return shortDay().format(new Date(`${day}T00:00:00Z`));
}
