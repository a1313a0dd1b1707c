/**
 * The `regex` extract of an HMAC template: an administrator's pattern run on a header or
 * parameter a stranger sent, before anything is authenticated. It runs in RE2's linear-time
 * engine (re2js, pure JavaScript), never V8's backtracking one: with V8, the pattern
 * `^(?:[a-z0-9]+\s?)*=\s?([a-f0-9]+)$` and a 40-character header held the whole process for
 * more than 40 s. The price is RE2's syntax: no backreferences, lookarounds, atomic groups or
 * possessive quantifiers, refused when the template is saved with the construct named.
 *
 * Linear is not free: the work is the compiled program's size times the text's length, and
 * counted repeats compile to one instruction per count (`[a-z]{1,1000}` twenty times held
 * the host 31 s on a 4,000-character header). So the program is bounded when the template is
 * saved (MAX_PROGRAM_SIZE) and the text where it is read (hmac-verify's MAX_VALUE_CHARS):
 * at most a few milliseconds a value.
 */
import { RE2JS } from 're2js';

export interface ExtractPattern {
  /** Capture group 1 of the first match, or the whole match when the pattern has no group 1 (or it took no part). */
  firstValue(text: string): string | undefined;
}

/** Instructions a pattern may compile to: every signature pattern seen in the wild needs under 150. */
export const MAX_PROGRAM_SIZE = 256;

/** A pattern the engine cannot take; the message names the construct. */
export class PatternError extends Error {}

// PCRE patterns are often written with delimiters (`/v1=(\w+)/i`): those are accepted too.
// (`u` is accepted and changes nothing: RE2 always matches Unicode code points.)
const DELIMITED = /^\/(.+)\/([imsu]*)$/s;
const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };

// The construct RE2 refused, said in the words an administrator searches for. RE2's message
// quotes the offending text between backticks: `\1`, `(?=`, `(?<=x)a`, `++`.
function unsupported(message: string): string | undefined {
  const quoted = message.slice(message.indexOf('`') + 1);
  if (/^\\[1-9k]/.test(quoted)) return 'backreferences (\\1, \\k<name>)';
  if (quoted.startsWith('(?=') || quoted.startsWith('(?!')) return 'lookaheads ((?=…), (?!…))';
  if (quoted.startsWith('(?<=') || quoted.startsWith('(?<!')) return 'lookbehinds ((?<=…), (?<!…))';
  if (quoted.startsWith('(?>')) return 'atomic groups ((?>…))';
  if (/^[*+?]\+/.test(quoted) || quoted.startsWith('++')) return 'possessive quantifiers (a++, a*+)';
  return undefined;
}

// The compiled program's length. re2js types its program loosely; should a later version
// move it, every pattern counts as too large and the suite says so at once.
function programSize(re: RE2JS): number {
  const program = (re.re2Input as { prog?: { inst?: unknown } }).prog;
  return Array.isArray(program?.inst) ? program.inst.length : Number.POSITIVE_INFINITY;
}

// `/…/g` is not a pattern with the flag g: refused, rather than taken as the literal text `/…/g`.
const OTHER_FLAGS = /^\/.+\/[a-z]*[^imsu\s/][a-z]*$/s;

function compile(source: string): RE2JS {
  if (OTHER_FLAGS.test(source) && !DELIMITED.test(source))
    throw new PatternError(`only the flags i, m, s and u can follow a /pattern/ (${source.slice(source.lastIndexOf('/'))})`);
  const delimited = DELIMITED.exec(source);
  const body = delimited ? delimited[1]! : source;
  const flags = delimited ? [...delimited[2]!].reduce((bits, flag) => bits | FLAG_BITS[flag]!, 0) : 0;
  let re: RE2JS;
  try {
    re = RE2JS.compile(body, flags);
  } catch (error) {
    const message = (error as Error).message;
    const construct = unsupported(message);
    throw new PatternError(construct ? `${construct} are not supported (patterns run in linear time): ${message}` : message);
  }
  const size = programSize(re);
  if (size > MAX_PROGRAM_SIZE)
    throw new PatternError(
      `the pattern is too large to run on what senders send: it compiles to ${size} instructions, at most ${MAX_PROGRAM_SIZE} (large counted repeats such as {1,1000} make it large: use + or * or a smaller count)`,
    );
  return re;
}

// Compiled once per pattern, not per request. Bounded: patterns are per template, and a
// template is per flow or preset.
const compiled = new Map<string, ExtractPattern>();
const COMPILED_MAX = 1000;

/** The compiled pattern; throws PatternError when the engine cannot take it. */
export function compileExtractPattern(source: string): ExtractPattern {
  let pattern = compiled.get(source);
  if (pattern) return pattern;
  const re = compile(source);
  const hasGroup = re.groupCount() >= 1;
  pattern = {
    firstValue(text) {
      const matcher = re.matcher(text);
      if (!matcher.find()) return undefined;
      return (hasGroup ? matcher.group(1) : null) ?? matcher.group(0) ?? undefined;
    },
  };
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  compiled.set(source, pattern);
  return pattern;
}
