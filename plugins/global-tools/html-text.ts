/** HTML to readable plain text (links kept as their text, images and scripts dropped). */
import { createRequire } from 'node:module';
import type { convert as convertFn } from 'html-to-text';

// html-to-text (with its HTML parser) loads on the first page a tool reads, not with the
// host. It is CommonJS, so `require` loads it inside this synchronous function.
const require = createRequire(import.meta.url);
let convert: typeof convertFn | undefined;

const OPTIONS = {
  wordwrap: false as const,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'noscript', format: 'skip' },
  ],
};

export function htmlToPlain(html: string): string {
  convert ??= (require('html-to-text') as { convert: typeof convertFn }).convert;
  return convert(html, OPTIONS)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
