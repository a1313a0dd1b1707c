/**
 * What a cell of an appended row is sent as. Rows go out with valueInputOption
 * USER_ENTERED, so the service parses each value as if typed: numbers and dates become
 * numbers and dates, as the people reading the sheet expect (RAW would leave them text).
 * The price is that text typed that way can start a formula: an item title
 * `=HYPERLINK(...)` or `=IMPORTDATA(...)` would run as one (CSV/formula injection,
 * OWASP). So text beginning with = + - @, a tab or a carriage return (OWASP's list), or
 * with an apostrophe (which the service would strip), is sent behind a leading `'`:
 * the service stores the rest as plain text and shows it exactly as the item had it.
 * A plain number such as `-12.5` or `+3` is no formula and stays a number.
 */
const FORMULA_TRIGGER = /^[=+\-@\t\r']/;
const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = String(value);
  return FORMULA_TRIGGER.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}
