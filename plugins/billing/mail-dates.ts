/**
 * Dates in e-mail as the reader reads them: a customer told their site "will be deleted on
 * 2026-04-10T13:04:05.000Z" has to convert it themselves. Formatted with Intl in the
 * site's time zone and language (the `timezone` and `locale` settings), with the zone's
 * name, so "Friday, 10 April 2026 at 15:04 CEST" is unambiguous.
 */

/**
 * A validation message for a time zone or locale Intl does not know, or null when both are fine.
 * The defaults are known good and skip the check: a process's first Intl time-zone lookup
 * builds its zone data, about 20 ms of every start (3 December, docs/performance.md).
 */
export function mailDateSettingsProblem(timezone: string, locale: string): string | null {
  if (timezone === 'UTC' && locale === 'en-GB') return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    return `timezone '${timezone}' is not a time zone name this Node knows (e.g. Europe/Berlin).`;
  }
  try {
    if (Intl.DateTimeFormat.supportedLocalesOf([locale]).length === 0)
      return `locale '${locale}' is not a language this Node can format dates in (e.g. en-GB, de-DE).`;
  } catch {
    return `locale '${locale}' is not a BCP 47 language tag (e.g. en-GB, de-DE).`;
  }
  return null;
}

/**
 * A formatter for instants (ISO strings as stored); an unreadable value is passed through
 * rather than lost. Intl's formatter is made on the first mail, not at start (see above).
 */
export function mailDateFormatter(timezone: string, locale: string): (iso: string) => string {
  let format: Intl.DateTimeFormat | undefined;
  const make = () =>
    new Intl.DateTimeFormat(locale, {
      timeZone: timezone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
  return (iso) => {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return iso;
    format ??= make();
    return format.format(date);
  };
}
