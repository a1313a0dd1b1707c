/** HTML to readable plain text (links kept as their text, images and scripts dropped). */
import { convert } from 'html-to-text';

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
  return convert(html, OPTIONS).replace(/\n{3,}/g, '\n\n').trim();
}
