/**
 * A markdown file as a documentation post: title from front matter or the first heading,
 * excerpt from front matter or the first paragraph, and relative links rewritten (other
 * markdown files to their posts, images and other files to the repository).
 */
import { posix } from 'node:path';

export interface ParsedDoc {
  title: string;
  excerpt: string;
  content: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
const MAX_EXCERPT = 300;

/** `key: value` lines of a front matter block (quotes removed); nested YAML is ignored. */
function frontMatter(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.split(/\r?\n/)) {
    const match = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (match && match[2]!.trim() !== '') out[match[1]!.toLowerCase()] = match[2]!.trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

/** Inline markdown reduced to its text, for an excerpt. */
function plain(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~]+/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function firstParagraph(body: string): string {
  for (const block of body.split(/\r?\n\s*\r?\n/)) {
    const text = block.trim();
    if (!text || /^(#|```|~~~|<|>|[-*+] |\d+\. |\||!\[|---)/.test(text)) continue;
    const flat = plain(text);
    if (flat) return flat.length > MAX_EXCERPT ? `${flat.slice(0, MAX_EXCERPT - 1)}…` : flat;
  }
  return '';
}

export function parseMarkdown(source: string, path: string): ParsedDoc {
  let body = source.replace(/^\uFEFF/, '');
  let meta: Record<string, string> = {};
  const fm = FRONT_MATTER.exec(body);
  if (fm) {
    meta = frontMatter(fm[1]!);
    body = body.slice(fm[0].length);
  }
  let title = meta.title ?? '';
  if (!title) {
    const heading = /^[ \t]{0,3}#[ \t]+(.+?)[ \t#]*$/m.exec(body);
    if (heading) {
      title = plain(heading[1]!);
      // The heading is the title: the post shows it once.
      body = body.slice(0, heading.index) + body.slice(heading.index + heading[0].length).replace(/^\r?\n/, '');
    }
  }
  if (!title) title = posix.basename(path).replace(/\.(md|markdown|mdx)$/i, '').replace(/[-_]+/g, ' ').trim() || path;
  const excerpt = meta.excerpt ?? meta.description ?? firstParagraph(body);
  return { title: title.slice(0, 500), excerpt: excerpt.slice(0, 2000), content: body.trim() };
}

export interface LinkContext {
  /** The file's path in the repository. */
  path: string;
  /** The repository's web address (`html_url`) and branch, for images and other files. */
  htmlUrl: string;
  branch: string;
  /** The post link of a markdown file by its repository path, or null when it has no post (yet). */
  postLink(path: string): string | null;
}

const LINK = /(!?)\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(\s+"[^"\n]*")?\s*\)/g;
export const isMarkdownPath = (path: string): boolean => /\.(md|markdown|mdx)$/i.test(path);

/**
 * Relative links and images rewritten; absolute ones, anchors and links whose target has
 * no post yet are left as written (a later pass may resolve those).
 */
export function rewriteLinks(content: string, ctx: LinkContext): { content: string; unresolved: number } {
  let unresolved = 0;
  const rewritten = content.replace(LINK, (whole, bang: string, text: string, target: string, title: string | undefined) => {
    if (/^([a-z][a-z0-9+.-]*:|\/\/|#|\?)/i.test(target)) return whole;
    const [pathPart, anchor] = splitAnchor(target);
    const fromRoot = pathPart.startsWith('/');
    const resolved = posix.normalize(fromRoot ? pathPart.slice(1) : posix.join(posix.dirname(ctx.path), pathPart));
    if (resolved.startsWith('..')) return whole;
    let url: string;
    if (bang) url = `${ctx.htmlUrl}/raw/${ctx.branch}/${encodePath(resolved)}`;
    else if (isMarkdownPath(resolved)) {
      const link = ctx.postLink(resolved);
      if (!link) {
        unresolved++;
        return whole;
      }
      url = `${link}${anchor}`;
    } else url = `${ctx.htmlUrl}/blob/${ctx.branch}/${encodePath(resolved)}${anchor}`;
    return `${bang}[${text}](${url}${title ?? ''})`;
  });
  return { content: rewritten, unresolved };
}

function splitAnchor(target: string): [string, string] {
  const at = target.indexOf('#');
  return at < 0 ? [target, ''] : [target.slice(0, at), target.slice(at)];
}

const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');
