/** Report dates: calendar days in UTC, as the spec's defaults ("28 days ago", "yesterday") count them. */

/** The UTC date `days` before `now`, as YYYY-MM-DD. */
export function daysAgo(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

/** Whether a YYYY-MM-DD string names a real calendar day (the schema checks only its shape). */
export function isRealDate(value: string): boolean {
  const parsed = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}
