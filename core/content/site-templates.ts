/**
 * The site's public pages, rendered by eta with auto-escaping: every `<%= %>` is escaped.
 * Raw output (`<%~ %>`) is only for fields named `...Html`: a post's title, content and
 * excerpt as wp/v2 answers them `rendered` (sanitize-html'd by render.ts, whoever wrote
 * them), and the page body these templates made. The pages' CSP runs no script at all.
 */
import { Eta } from 'eta';

const eta = new Eta({ autoEscape: true, useWith: false, varName: 'it', cache: false });

export interface ListedPost {
  titleHtml: string;
  link: string;
  date: string;
  excerptHtml: string;
}

const layout = eta.compile(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><%~ it.titleHtml %><% if (it.site) { %> – <%= it.site %><% } %></title>
<link rel="https://api.w.org/" href="<%= it.api %>">
<% if (it.alternate) { %><link rel="alternate" type="application/json" href="<%= it.alternate %>">
<% } %></head>
<body>
<header><p><a href="<%= it.home %>/"><%= it.site %></a></p></header>
<main>
<%~ it.mainHtml %>
</main>
</body>
</html>
`);

const single = eta.compile(`<article>
<h1><%~ it.titleHtml %></h1>
<p><time datetime="<%= it.date %>"><%= it.dateLabel %></time><% if (it.author) { %> · <a href="<%= it.author.link %>" rel="author"><%= it.author.name %></a><% } %></p>
<% if (it.terms.length) { %><p><% for (const t of it.terms) { %><a href="<%= t.link %>" rel="tag"><%= t.name %></a> <% } %></p><% } %>
<div class="entry-content">
<%~ it.contentHtml %>
</div>
</article>`);

const archive = eta.compile(`<h1><%= it.heading %></h1>
<% if (it.description) { %><p><%= it.description %></p><% } %>
<% if (it.posts.length === 0) { %><p>Nothing published here yet.</p><% } else { %>
<ul>
<% for (const p of it.posts) { %><li><a href="<%= p.link %>"><%~ p.titleHtml %></a> <time datetime="<%= p.date %>"><%= p.date.slice(0, 10) %></time><% if (p.excerptHtml) { %><%~ p.excerptHtml %><% } %></li>
<% } %></ul>
<% } %>
<% if (it.prev || it.next) { %><nav><% if (it.prev) { %><a rel="prev" href="<%= it.prev %>">Newer</a> <% } %><% if (it.next) { %><a rel="next" href="<%= it.next %>">Older</a><% } %></nav><% } %>`);

const notFound = eta.compile(`<h1>Not found</h1>
<p>Nothing is published at this address.</p>`);

interface Frame {
  /** Plain text with entities escaped (render.ts plainText): safe raw inside <title>. */
  titleHtml: string;
  site: string;
  home: string;
  api: string;
  alternate?: string;
}

export function renderSingle(
  frame: Frame,
  post: {
    titleHtml: string;
    date: string;
    contentHtml: string;
    author: { name: string; link: string } | null;
    terms: Array<{ name: string; link: string }>;
  },
): string {
  const mainHtml = eta.render(single, { ...post, dateLabel: post.date.slice(0, 10) });
  return eta.render(layout, { ...frame, mainHtml });
}

export function renderArchive(
  frame: Frame,
  view: { heading: string; description: string; posts: ListedPost[]; prev: string | null; next: string | null },
): string {
  return eta.render(layout, { ...frame, mainHtml: eta.render(archive, view) });
}

export function renderNotFound(frame: Frame): string {
  return eta.render(layout, { ...frame, mainHtml: eta.render(notFound, {}) });
}
