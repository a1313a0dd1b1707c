// How the spreadsheet service reads a value sent with values:append, for the fake Sheets
// server: the difference between what a client sent and what ends up in the cell. With
// USER_ENTERED a value is parsed as if typed into the cell — a leading apostrophe makes
// the rest plain text (the apostrophe is not part of the value), a number is a number, and
// a leading = (or + - @, as spreadsheets take those too) starts a live formula. With RAW
// every value is stored exactly as sent.

export type EnteredCell =
  | { type: 'text'; value: string }
  | { type: 'number'; value: number }
  | { type: 'boolean'; value: boolean }
  | { type: 'formula'; formula: string };

export type ValueInputOption = 'USER_ENTERED' | 'RAW';

/** A plain number as a spreadsheet reads one (sign, digits, decimals, exponent). */
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const FORMULA_START = /^[=+\-@]/;

export function enteredCell(value: unknown, option: ValueInputOption): EnteredCell | string {
  if (typeof value === 'number') return Number.isFinite(value) ? { type: 'number', value } : 'a number must be finite';
  if (typeof value === 'boolean') return { type: 'boolean', value };
  if (typeof value !== 'string') return `a cell must be a string, number or boolean, not ${value === null ? 'null' : typeof value}`;
  if (option === 'RAW') return { type: 'text', value };
  if (value.startsWith("'")) return { type: 'text', value: value.slice(1) };
  if (NUMBER.test(value.trim())) return { type: 'number', value: Number(value) };
  if (/^(TRUE|FALSE)$/i.test(value)) return { type: 'boolean', value: value.toUpperCase() === 'TRUE' };
  if (FORMULA_START.test(value)) return { type: 'formula', formula: value };
  return { type: 'text', value };
}
