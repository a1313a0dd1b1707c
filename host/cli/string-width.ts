// string-width for the bundle (scripts/bundle.mjs points yargs', cliui's and wrap-ansi's
// `import 'string-width'` here). string-width 8 builds its Unicode tables when it loads: a
// `v`-flag regular expression of every RGI emoji and an `Intl.Segmenter`, about 50 ms of
// every command's start (docs/performance.md, "Start-up: one bundle"), though only help and
// usage text ever measure a string. Printable ASCII is one column a character, so that needs
// no library; anything else (ANSI colour codes, accents, wide characters, emoji) is measured
// by string-width itself, loaded then.
import { createRequire } from 'node:module';
import type { Options } from 'string-width';

type StringWidth = (text: string, options?: Options) => number;
let library: StringWidth | undefined;

// A string of nothing but printable ASCII (space to tilde), the whole of almost every help text.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export default function stringWidth(text: string, options?: Options): number {
  if (typeof text === 'string' && PRINTABLE_ASCII.test(text)) return text.length;
  library ??= (createRequire(import.meta.url)('string-width') as { default: StringWidth }).default;
  return library(text, options);
}
