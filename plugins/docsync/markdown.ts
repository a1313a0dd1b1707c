/**
 * A markdown file as a documentation post: title from front matter or the first level-one
 * heading, excerpt from front matter or the first paragraph, and relative links rewritten
 * (other markdown files to their posts, images and other files to the repository). The
 * markdown is read by markdown-it and the front matter by `yaml`; the post keeps the file's
 * text as written apart from the destinations rewritten.
 */
import { posix } from 'node:path';
import { splitFrontMatter, textField } from './front-matter.js';
import { inlineText, normaliseSource, parseWithLinks } from './markdown-tokens.js';

export interface ParsedDoc {
  title: string;
  excerpt: string;
  content: string;
}

const MAX_EXCERPT = 300;

export function parseMarkdown(source: string, path: string): ParsedDoc {
  const text = normaliseSource(source.startsWith('\uFEFF') ? source.slice(1) : source);
  const { meta, body: afterMeta } = splitFrontMatter(text);
  let body = afterMeta;
  let title = textField(meta, 'title');
  const { tokens } = parseWithLinks(body);
  if (!title) {
    const at = tokens.findIndex((t) => t.type === 'heading_open' && t.tag === 'h1' && t.level === 0);
    const heading = at >= 0 ? tokens[at] : undefined;
    const inline = tokens[at + 1];
    if (heading?.map && inline?.type === 'inline') {
      title = inlineText(inline.children);
      // The heading is the title: the post shows it once (its lines, and one blank line after).
      const lines = body.split('\n');
      const [from, to] = heading.map;
      lines.splice(from, to - from + (lines[to]?.trim() === '' ? 1 : 0));
      body = lines.join('\n');
    }
  }
  if (!title)
    title =
      posix
        .basename(path)
        .replace(/\.(md|markdown|mdx)$/i, '')
        .replace(/[-_]+/g, ' ')
        .trim() || path;
  const excerpt = textField(meta, 'excerpt') || textField(meta, 'description') || firstParagraph(tokens);
  return { title: title.slice(0, 500), excerpt: excerpt.slice(0, 2000), content: body.trim() };
}

/** The text of the first top-level paragraph that has words (one holding only images has none). */
function firstParagraph(tokens: ReturnType<typeof parseWithLinks>['tokens']): string {
  for (const [i, token] of tokens.entries()) {
    if (token.type !== 'paragraph_open' || token.level !== 0) continue;
    const inline = tokens[i + 1];
    if (
      inline?.type !== 'inline' ||
      !inline.children?.some((c) => (c.type === 'text' && c.content.trim() !== '') || c.type === 'code_inline')
    )
      continue;
    const flat = inlineText(inline.children.filter((c) => c.type !== 'image'));
    if (flat) return flat.length > MAX_EXCERPT ? `${flat.slice(0, MAX_EXCERPT - 1)}…` : flat;
  }
  return '';
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

export const isMarkdownPath = (path: string): boolean => /\.(md|markdown|mdx)$/i.test(path);
const ABSOLUTE = /^([a-z][a-z0-9+.-]*:|\/\/|#|\?)/i;

/**
 * Relative link and image destinations rewritten, inline (`[text](guide.md)`) and in
 * reference definitions (`[ref]: guide.md`), never inside code; absolute ones, anchors and
 * links whose target has no post yet are left as written (a later pass may resolve those).
 */
export function rewriteLinks(content: string, ctx: LinkContext): { content: string; unresolved: number } {
  const source = normaliseSource(content);
  let unresolved = 0;
  const edits: Array<{ start: number; end: number; url: string }> = [];
  for (const link of parseWithLinks(source).links) {
    if (ABSOLUTE.test(link.target)) continue;
    const [pathPart, anchor] = splitAnchor(link.target);
    if (!pathPart) continue;
    const fromRoot = pathPart.startsWith('/');
    const resolved = posix.normalize(fromRoot ? pathPart.slice(1) : posix.join(posix.dirname(ctx.path), pathPart));
    if (resolved.startsWith('..')) continue;
    let url: string;
    if (link.image) url = `${ctx.htmlUrl}/raw/${ctx.branch}/${encodePath(resolved)}`;
    else if (isMarkdownPath(resolved)) {
      const post = ctx.postLink(resolved);
      if (!post) {
        unresolved++;
        continue;
      }
      url = `${post}${anchor}`;
    } else url = `${ctx.htmlUrl}/blob/${ctx.branch}/${encodePath(resolved)}${anchor}`;
    edits.push({ start: link.start, end: link.end, url });
  }
  let out = source;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.url + out.slice(edit.end);
  return { content: out, unresolved };
}

function splitAnchor(target: string): [string, string] {
  const at = target.indexOf('#');
  return at < 0 ? [target, ''] : [target.slice(0, at), target.slice(at)];
}

const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');
