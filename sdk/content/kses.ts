/**
 * What WordPress's kses keeps of the HTML a user without `unfiltered_html` stores, done
 * with sanitize-html (an HTML parser), never with patterns over the text:
 *
 * - `ksesPost`: wp_kses_post / wp_filter_post_kses ($allowedposttags), for post content
 *   and excerpts.
 * - `ksesTitle`: wp_filter_kses ($allowedtags: a few inline tags), for post titles and
 *   term descriptions.
 * - `stripTags`: sanitize_text_field's wp_strip_all_tags, for term names (WordPress does
 *   this for every user, whatever their capabilities).
 *
 * Text that has nothing to remove is stored as written: the filter's output is compared
 * with the same parser's output when everything is allowed, and only when they differ is
 * the filtered serialization stored. So markdown (a `>` quote, `a < b` in code) and plain
 * text keep their characters, while anything kses would drop is dropped. WordPress's
 * inline `style` attribute (filtered by safecss_filter_attr) is not kept here at all.
 */
import { createRequire } from 'node:module';
import type sanitizeHtmlFn from 'sanitize-html';

const require = createRequire(import.meta.url);
let sanitizer: typeof sanitizeHtmlFn | undefined;
const sanitizeHtml = (html: string, options: sanitizeHtmlFn.IOptions) =>
  (sanitizer ??= require('sanitize-html') as typeof sanitizeHtmlFn)(html, options);

/** wp_allowed_protocols(). */
const PROTOCOLS = [
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'news',
  'irc',
  'irc6',
  'ircs',
  'gopher',
  'nntp',
  'feed',
  'telnet',
  'mms',
  'rtsp',
  'sms',
  'svn',
  'tel',
  'fax',
  'xmpp',
  'webcal',
  'urn',
];
/** wp_kses_uri_attributes() that the allowed tags carry. */
const URI_ATTRIBUTES = ['href', 'src', 'cite', 'longdesc', 'poster', 'usemap', 'data'];
/** _wp_add_global_attributes(), less `style`. */
const GLOBAL_ATTRIBUTES = [
  'aria-controls',
  'aria-current',
  'aria-describedby',
  'aria-details',
  'aria-expanded',
  'aria-hidden',
  'aria-label',
  'aria-labelledby',
  'aria-live',
  'class',
  'data-*',
  'dir',
  'hidden',
  'id',
  'lang',
  'title',
  'role',
  'xml:lang',
];

const align = ['align'];
const cell = [
  'abbr',
  'align',
  'axis',
  'bgcolor',
  'char',
  'charoff',
  'colspan',
  'headers',
  'height',
  'nowrap',
  'rowspan',
  'scope',
  'valign',
  'width',
];
const section = ['align', 'char', 'charoff', 'valign'];

/** $allowedposttags (wp-includes/kses.php), tag → its own attributes. */
const POST_TAGS: Record<string, string[]> = {
  address: [],
  a: ['href', 'rel', 'rev', 'name', 'target', 'download'],
  abbr: [],
  acronym: [],
  area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'],
  article: align,
  aside: align,
  audio: ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'],
  b: [],
  bdo: [],
  big: [],
  blockquote: ['cite'],
  br: [],
  button: ['disabled', 'name', 'type', 'value'],
  caption: align,
  cite: [],
  code: [],
  col: ['align', 'char', 'charoff', 'span', 'valign', 'width'],
  colgroup: ['align', 'char', 'charoff', 'span', 'valign', 'width'],
  del: ['datetime'],
  dd: [],
  dfn: [],
  details: ['align', 'open'],
  div: align,
  dl: [],
  dt: [],
  em: [],
  fieldset: [],
  figure: align,
  figcaption: align,
  font: ['color', 'face', 'size'],
  footer: align,
  h1: align,
  h2: align,
  h3: align,
  h4: align,
  h5: align,
  h6: align,
  header: align,
  hgroup: align,
  hr: ['align', 'noshade', 'size', 'width'],
  i: [],
  img: ['alt', 'align', 'border', 'height', 'hspace', 'loading', 'longdesc', 'vspace', 'src', 'usemap', 'width', 'decoding'],
  ins: ['datetime', 'cite'],
  kbd: [],
  label: ['for'],
  legend: align,
  li: ['align', 'value'],
  main: align,
  map: ['name'],
  mark: [],
  menu: ['type'],
  nav: align,
  p: align,
  pre: ['width'],
  q: ['cite'],
  rb: [],
  rp: [],
  rt: [],
  rtc: [],
  ruby: [],
  s: [],
  samp: [],
  span: align,
  section: align,
  small: [],
  strike: [],
  strong: [],
  sub: [],
  summary: align,
  sup: [],
  table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: section,
  td: cell,
  textarea: ['cols', 'rows', 'disabled', 'name', 'readonly'],
  tfoot: section,
  th: cell,
  thead: section,
  title: [],
  tr: ['align', 'bgcolor', 'char', 'charoff', 'valign'],
  track: ['default', 'kind', 'label', 'src', 'srclang'],
  tt: [],
  u: [],
  ul: ['type'],
  ol: ['start', 'type', 'reversed'],
  var: [],
  video: ['autoplay', 'controls', 'height', 'loop', 'muted', 'playsinline', 'poster', 'preload', 'src', 'width'],
};

/** $allowedtags: what kses leaves in titles and term descriptions (no global attributes). */
const TITLE_TAGS: Record<string, string[]> = {
  address: [],
  a: ['href', 'title'],
  abbr: ['title'],
  acronym: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
};

// Dropped with their content, as wp_kses drops script and style bodies.
const NON_TEXT = [
  'script',
  'style',
  'noscript',
  'iframe',
  'object',
  'embed',
  'template',
  'svg',
  'math',
  'head',
  'option',
  'xmp',
  'noembed',
  'noframes',
];

const optionsFor = (tags: Record<string, string[]>, global: string[]): sanitizeHtmlFn.IOptions => ({
  allowedTags: Object.keys(tags),
  allowedAttributes: { ...tags, '*': global },
  allowedSchemes: PROTOCOLS,
  allowedSchemesAppliedToAttributes: URI_ATTRIBUTES,
  allowProtocolRelative: true,
  nonTextTags: NON_TEXT.filter((tag) => !(tag in tags)),
  disallowedTagsMode: 'discard',
});

const POST_OPTIONS = optionsFor(POST_TAGS, GLOBAL_ATTRIBUTES);
const TITLE_OPTIONS = optionsFor(TITLE_TAGS, []);
const TEXT_OPTIONS: sanitizeHtmlFn.IOptions = {
  allowedTags: [],
  allowedAttributes: {},
  nonTextTags: [...NON_TEXT, 'title', 'textarea'],
  disallowedTagsMode: 'discard',
};

/** The same parse and serialization with nothing removed: what "unchanged" means. */
const EVERYTHING: sanitizeHtmlFn.IOptions = {
  allowedTags: false,
  allowedAttributes: false,
  allowVulnerableTags: true,
  allowedSchemesAppliedToAttributes: [],
  nonTextTags: [],
  disallowedTagsMode: 'discard',
};

function filtered(text: string, options: sanitizeHtmlFn.IOptions): string {
  const kept = sanitizeHtml(text, options);
  return kept === sanitizeHtml(text, EVERYTHING) ? text : kept;
}

export const ksesPost = (html: string): string => filtered(html, POST_OPTIONS);
export const ksesTitle = (html: string): string => filtered(html, TITLE_OPTIONS);
export const stripTags = (text: string): string => filtered(text, TEXT_OPTIONS);
/**
 * A text field as WordPress stores one (sanitize_text_field, wp_filter_kses, then
 * _wp_specialchars): tags removed and `&`, `<`, `>` always as entities, so `Fish & Chips`
 * and `<b>Fish</b> &amp; Chips` are the same name. stripTags keeps text it does not
 * change as it came; a name compared with others needs the one form.
 */
export const textField = (text: string): string => sanitizeHtml(text, TEXT_OPTIONS);

/** A post's HTML fields, as a create or update carries them. */
export interface PostText {
  title?: string;
  content?: string;
  excerpt?: string;
}

/**
 * The title, content and excerpt as stored for a writer: unchanged for one with
 * unfiltered_html (`trusted`), else WordPress's kses (title: wp_filter_kses; content and
 * excerpt: wp_filter_post_kses). One rule for every way a post is written: wp/v2 for the
 * requesting user, a pipeline run for its flow's owner.
 */
export function postTextFor<T extends PostText>(fields: T, trusted: boolean): T {
  if (trusted) return fields;
  const out = { ...fields };
  if (typeof out.title === 'string') out.title = ksesTitle(out.title);
  if (typeof out.content === 'string') out.content = ksesPost(out.content);
  if (typeof out.excerpt === 'string') out.excerpt = ksesPost(out.excerpt);
  return out;
}
