/**
 * What wp/v2 answers as `rendered`: a post's stored text turned into safe HTML.
 *
 * The rule for markdown: the post's `meta.content_format` decides when set ('markdown'
 * or 'html'); otherwise text with no HTML block tag in it (<p>, <div>, <h1>..., <ul>,
 * <table>, <pre>, <blockquote>, <figure>, <br>, <img>...) is read as markdown. Plain
 * text is valid markdown, so a plain post gets its paragraphs as WordPress's `wpautop`
 * would give them; text written as HTML is left as written.
 *
 * Whatever the source, the HTML then goes through sanitize-html with an allow-list: no
 * script, style or iframe (their content is dropped, not shown), no event-handler or
 * style attributes, links only to http(s), mailto and tel (relative links too), images
 * from http(s) or `data:image/...`. The markdown renderer lets raw HTML through on
 * purpose (markdown documents embed it), since the sanitizer is the one gate.
 */
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import type sanitizeHtmlFn from 'sanitize-html';

export type ContentFormat = 'markdown' | 'html';

// Both libraries (with the HTML parser, postcss and the entity tables behind them) load on
// the first post rendered, not with the host: an idle host kept about 8 MB of them. They are
// CommonJS, so `require` loads them synchronously inside these synchronous functions.
const require = createRequire(import.meta.url);
let markdownIt: InstanceType<typeof MarkdownIt> | undefined;
let sanitizer: typeof sanitizeHtmlFn | undefined;
const markdown = () =>
  (markdownIt ??= new (require('markdown-it') as typeof MarkdownIt)({ html: true, linkify: true, typographer: false }));
const sanitizeHtml = (html: string, options: sanitizeHtmlFn.IOptions) =>
  (sanitizer ??= require('sanitize-html') as typeof sanitizeHtmlFn)(html, options);

const BLOCK_TAG =
  /<\s*(p|div|h[1-6]|ul|ol|li|table|thead|tbody|tr|td|th|pre|blockquote|figure|figcaption|section|article|header|footer|aside|nav|hr|br|img|dl|dt|dd)\b/i;

/** The format a text is rendered in, by the rule above. */
export function contentFormat(text: string, declared: unknown): ContentFormat {
  if (declared === 'markdown' || declared === 'html') return declared;
  return BLOCK_TAG.test(text) ? 'html' : 'markdown';
}

const BLOCK_OPTIONS: sanitizeHtmlFn.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'div',
    'span',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
    'ins',
    'mark',
    'small',
    'sub',
    'sup',
    'abbr',
    'cite',
    'q',
    'kbd',
    'samp',
    'var',
    'time',
    'a',
    'img',
    'figure',
    'figcaption',
    'picture',
    'source',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'blockquote',
    'pre',
    'code',
    'table',
    'caption',
    'colgroup',
    'col',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'details',
    'summary',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'name', 'rel', 'target', 'hreflang'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'srcset', 'sizes'],
    source: ['srcset', 'sizes', 'type', 'media'],
    th: ['colspan', 'rowspan', 'scope', 'align'],
    td: ['colspan', 'rowspan', 'align'],
    col: ['span'],
    colgroup: ['span'],
    ol: ['start', 'reversed', 'type'],
    li: ['value'],
    code: ['class'],
    pre: ['class'],
    span: ['class'],
    div: ['class'],
    figure: ['class'],
    abbr: ['title'],
    time: ['datetime'],
    q: ['cite'],
    blockquote: ['cite'],
    details: ['open'],
  },
  allowedClasses: {
    // Syntax-highlighting hints from markdown fences and common editors, nothing else.
    code: [/^language-[\w+#-]{1,40}$/],
    pre: [/^language-[\w+#-]{1,40}$/, /^wp-block-[\w-]{1,40}$/],
    span: [/^wp-[\w-]{1,40}$/],
    div: [/^wp-block-[\w-]{1,40}$/],
    figure: [/^wp-block-[\w-]{1,40}$/],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'], source: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'srcset'],
  allowProtocolRelative: true,
  // Dropped with their content: what a browser would run or interpret rather than show.
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'template',
    'svg',
    'math',
    'title',
    'head',
  ],
  disallowedTagsMode: 'discard',
  transformTags: {
    // A link that opens a new window must not hand the opener to the target.
    a: (tagName, attribs) =>
      attribs.target === '_blank' ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } } : { tagName, attribs },
  },
  exclusiveFilter: (frame) =>
    frame.tag === 'img' &&
    typeof frame.attribs.src === 'string' &&
    /^\s*data:/i.test(frame.attribs.src) &&
    !/^\s*data:image\/(png|gif|jpe?g|webp|avif);/i.test(frame.attribs.src),
};

const INLINE_OPTIONS: sanitizeHtmlFn.IOptions = {
  allowedTags: ['strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'code', 'abbr', 'span', 'br'],
  allowedAttributes: { abbr: ['title'] },
  nonTextTags: BLOCK_OPTIONS.nonTextTags,
  disallowedTagsMode: 'discard',
};

/** Any HTML through the allow-list. */
export function sanitize(html: string): string {
  return sanitizeHtml(html, BLOCK_OPTIONS);
}

/** A post's content or excerpt as safe HTML. */
export function renderContent(text: string, declared?: unknown): string {
  if (text.trim() === '') return '';
  const html = contentFormat(text, declared) === 'markdown' ? markdown().render(text) : text;
  return sanitize(html);
}

/** A title: inline formatting only (WordPress lets a little HTML into titles). */
export function renderTitle(text: string): string {
  return sanitizeHtml(text, INLINE_OPTIONS);
}

/** Plain text of some HTML (for derived excerpts). */
export function plainText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {}, nonTextTags: BLOCK_OPTIONS.nonTextTags })
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export const EXCERPT_WORDS = 55;

/**
 * The excerpt as WordPress shows it: the written one rendered, else the first 55 words
 * of the rendered content followed by ` [&hellip;]` when it was cut.
 */
export function renderExcerpt(excerpt: string, renderedContent: string, declared?: unknown): string {
  if (excerpt.trim() !== '') return renderContent(excerpt, declared);
  const words = plainText(renderedContent).split(' ').filter(Boolean);
  if (words.length === 0) return '';
  // plainText keeps entities escaped, so the words are safe HTML text already.
  const cut = words.length > EXCERPT_WORDS;
  return `<p>${words.slice(0, EXCERPT_WORDS).join(' ')}${cut ? ' [&hellip;]' : ''}</p>\n`;
}
