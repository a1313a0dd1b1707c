/**
 * RSS 2.0, RSS 1.0 (RDF) and Atom 1.0 documents as one list of items. fast-xml-parser
 * does the XML; this module only knows where each format keeps a title, a link, a date.
 */
import { createRequire } from 'node:module';
import type * as FastXml from 'fast-xml-parser';

export interface FeedItem {
  title: string;
  /** Full content when the feed carries it (content:encoded, atom:content), else the summary. */
  content: string;
  link: string;
  /** ISO 8601, or null when the item has no readable date. */
  published_at: string | null;
  author: string;
  guid: string;
}

export class FeedParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedParseError';
  }
}

type Node = Record<string, unknown>;

// fast-xml-parser loads with the first feed read, not with the host. It ships CommonJS,
// so `require` loads it inside the synchronous parseFeed.
const require = createRequire(import.meta.url);
let xml: { parser: FastXml.XMLParser; validator: typeof FastXml.XMLValidator } | undefined;
const xmlLibrary = () => {
  if (xml) return xml;
  const { XMLParser, XMLValidator } = require('fast-xml-parser') as typeof FastXml;
  xml = { parser: new XMLParser(PARSER_OPTIONS), validator: XMLValidator };
  return xml;
};

const PARSER_OPTIONS: FastXml.X2jOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Keep every value a string: a title like "2024" must not become a number.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: true,
  isArray: (name) => ['item', 'entry', 'link', 'category', 'author'].includes(name),
};

/** The text of an element whether it parsed as a string or as `{ '#text', @_attrs }`. */
function text(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') return String(node).trim();
  if (Array.isArray(node)) return text(node[0]);
  if (typeof node === 'object') return text((node as Node)['#text']);
  return '';
}

const first = (...values: string[]): string => values.find((v) => v.length > 0) ?? '';

function isoDate(value: string): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** Relative links (Atom allows them) resolved against the feed's own address. */
function absolute(link: string, base: string | undefined): string {
  if (!link || !base) return link;
  try {
    return new URL(link, base).href;
  } catch {
    return link;
  }
}

function list(node: unknown): Node[] {
  if (node === undefined || node === null || node === '') return [];
  return (Array.isArray(node) ? node : [node]).filter((n): n is Node => typeof n === 'object' && n !== null);
}

function rssItem(item: Node, base: string | undefined): FeedItem {
  const authors = Array.isArray(item.author) ? item.author : [item.author];
  return {
    title: text(item.title),
    content: first(text(item['content:encoded']), text(item.description)),
    link: absolute(first(text(item.link), text(item['feedburner:origLink'])), base),
    published_at: isoDate(first(text(item.pubDate), text(item['dc:date']))),
    author: first(text(item['dc:creator']), text(authors[0])),
    guid: text(item.guid) || text((item as Node)['@_rdf:about']),
  };
}

function atomLink(entry: Node): string {
  const links = list(entry.link);
  const alternate = links.find((l) => !l['@_rel'] || l['@_rel'] === 'alternate') ?? links[0];
  return alternate ? String(alternate['@_href'] ?? '') : '';
}

function atomItem(entry: Node, base: string | undefined): FeedItem {
  const author = list(entry.author)[0];
  return {
    title: text(entry.title),
    content: first(text(entry.content), text(entry.summary)),
    link: absolute(atomLink(entry), base),
    published_at: isoDate(first(text(entry.published), text(entry.updated))),
    author: author ? text(author.name) : '',
    guid: text(entry.id),
  };
}

/** Newest first; undated items keep their feed order after the dated ones. */
function newestFirst(items: FeedItem[]): FeedItem[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => {
      const ta = a.item.published_at ? Date.parse(a.item.published_at) : null;
      const tb = b.item.published_at ? Date.parse(b.item.published_at) : null;
      if (ta !== null && tb !== null && ta !== tb) return tb - ta;
      if (ta === null && tb !== null) return 1;
      if (ta !== null && tb === null) return -1;
      return a.index - b.index;
    })
    .map(({ item }) => item);
}

/**
 * Every item of an RSS or Atom document, newest first. `baseUrl` (the feed's address)
 * resolves relative links. Throws FeedParseError for anything that is not well-formed
 * XML or not a feed.
 */
export function parseFeed(text: string, baseUrl?: string): FeedItem[] {
  const { parser, validator } = xmlLibrary();
  const valid = validator.validate(text);
  if (valid !== true) {
    throw new FeedParseError(`not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`);
  }
  const doc = parser.parse(text) as Node;
  const rss = doc.rss as Node | undefined;
  if (rss && typeof rss === 'object') {
    const channel = (Array.isArray(rss.channel) ? rss.channel[0] : rss.channel) as Node | undefined;
    if (!channel || typeof channel !== 'object') throw new FeedParseError('an RSS document without a <channel>');
    return newestFirst(list(channel.item).map((item) => rssItem(item, baseUrl)));
  }
  const feed = doc.feed as Node | undefined;
  if (feed && typeof feed === 'object') return newestFirst(list(feed.entry).map((entry) => atomItem(entry, baseUrl)));
  const rdf = doc['rdf:RDF'] as Node | undefined;
  if (rdf && typeof rdf === 'object') return newestFirst(list(rdf.item).map((item) => rssItem(item, baseUrl)));
  // An empty channel/feed parses to '' rather than an object.
  if (doc.rss === '' || doc.feed === '') return [];
  throw new FeedParseError(
    `not an RSS or Atom document (root element: ${Object.keys(doc).filter((k) => !k.startsWith('?'))[0] ?? 'none'})`,
  );
}
