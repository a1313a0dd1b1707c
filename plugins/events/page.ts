/**
 * GET /events (site root): a small calendar page. The first page is rendered on the server
 * from the same query arguments the fragment endpoint takes, so it works without
 * JavaScript (the search form and every link are plain GETs to this page); calendar.js then
 * takes over: it calls /events/calendar and /events/filters and swaps the fragments in,
 * keeping the state in the query string. No build step, no CDN: one inline style block
 * (allowed by its hash) and one script from this host.
 */
import { createHash } from 'node:crypto';
import { eta } from './templates.js';
import type { CalendarArgs } from './calendar-query.js';
import type { Fragments } from './fragments.js';

const STYLE = `
:root{font-family:system-ui,sans-serif;line-height:1.45;color:#1d1d1f;background:#fafafa}
body{margin:0}
.fh-skip{position:absolute;left:-999px}.fh-skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
header,main{max-width:52rem;margin:0 auto;padding:0 1rem}
h1{margin:1.5rem 0 1rem}
.fh-search{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin-bottom:1rem}
.fh-search label{display:flex;flex-direction:column;font-size:.85rem;gap:.2rem}
.fh-search input{font:inherit;padding:.35rem .5rem;border:1px solid #888;border-radius:4px}
button,.fh-toggle,.fh-page{font:inherit;padding:.35rem .75rem;border:1px solid #555;border-radius:4px;background:#fff;color:#1d1d1f;text-decoration:none;cursor:pointer}
.fh-toggle[aria-current],.fh-page[aria-current]{background:#1d1d1f;color:#fff}
.fh-navigation{display:flex;gap:.5rem;align-items:center;margin:.5rem 0}
.fh-range{margin-left:auto;font-size:.9rem}
.fh-day-title{font-size:1.1rem;border-bottom:2px solid #ddd;padding-bottom:.25rem;margin-top:1.5rem}
.fh-events{list-style:none;padding:0;margin:0}
.fh-event{padding:.6rem 0;border-bottom:1px solid #eee}
.fh-event-title{font-size:1rem;margin:0}
.fh-event p{margin:.2rem 0}
.fh-term{display:inline-block;font-size:.75rem;background:#eef;border-radius:3px;padding:0 .35rem}
.fh-pagination ul{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;padding:0;margin:1.5rem 0}
#fh-list[aria-busy=true]{opacity:.5}
dialog{max-width:36rem;width:90vw;border:1px solid #555;border-radius:6px}
dialog fieldset{border:1px solid #ccc;margin:0 0 1rem}
dialog label{display:block}
.fh-count{color:#666;font-size:.85rem}
.fh-dialog-actions{display:flex;gap:.5rem;justify-content:flex-end}
dialog ul.fh-term-tree{list-style:none;margin:0;padding:0}
dialog .fh-term-tree .fh-term-tree{padding-left:1.5rem}
.fh-active{display:flex;flex-wrap:wrap;gap:.35rem;align-items:center;margin:.5rem 0;font-size:.9rem}
.fh-active ul{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;margin:0;padding:0}
.fh-active-filter{display:inline-block;padding:.1rem .6rem;border:1px solid #555;border-radius:999px;background:#fff;color:#1d1d1f;text-decoration:none}
.fh-active-filter::after{content:"×";margin-left:.4rem}
`;
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

export const PAGE_CSP = `default-src 'none'; script-src 'self'; style-src 'sha256-${STYLE_HASH}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;

// The fragments were rendered (and escaped) by our own templates: they are the one raw
// insertion. Everything else here is escaped.
const pageTemplate = eta.compile(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><%= it.title %></title>
<% /* No icon of its own: an empty data: icon stops the browser asking for /favicon.ico, which would be a 404 on every load. */ %>
<link rel="icon" href="data:,">
<style><%~ it.style %></style>
</head>
<body>
<a class="fh-skip" href="#fh-main">Skip to the events</a>
<header>
<h1><%= it.title %></h1>
</header>
<main id="fh-main" data-api="<%= it.api %>" data-page="<%= it.path %>">
<form class="fh-search" role="search" method="get" action="<%= it.path %>" aria-label="Search events">
<label for="fh-q">Search<input id="fh-q" type="search" name="event_search" maxlength="200" value="<%= it.args.search %>"></label>
<label for="fh-from">From<input id="fh-from" type="date" name="date_start" value="<%= it.args.dateStart || '' %>"></label>
<label for="fh-to">To<input id="fh-to" type="date" name="date_end" value="<%= it.args.dateEnd || '' %>"></label>
<% for (const f of it.hidden) { %><input type="hidden" name="<%= f.name %>" value="<%= f.value %>"><% } %>
<button type="submit">Search</button>
<button type="button" id="fh-open-filters" aria-haspopup="dialog" aria-controls="fh-filters" hidden>Filters</button>
</form>
<div id="fh-active"><%~ it.fragments.active %></div>
<div id="fh-navigation"><%~ it.fragments.navigation %></div>
<div id="fh-counter"><%~ it.fragments.counter %></div>
<div id="fh-list" aria-live="polite" aria-busy="false"><%~ it.fragments.html %></div>
<div id="fh-pagination"><%~ it.fragments.pagination %></div>
</main>
<dialog id="fh-filters" aria-labelledby="fh-filters-title">
<form method="dialog">
<h2 id="fh-filters-title">Filter events</h2>
<div id="fh-filter-groups"><p>Loading…</p></div>
<div class="fh-dialog-actions">
<button type="button" id="fh-clear">Clear</button>
<button type="button" id="fh-close">Close</button>
<button type="button" id="fh-apply">Apply filters</button>
</div>
</form>
</dialog>
<script src="<%= it.path %>/calendar.js" defer></script>
</body>
</html>`);

export function renderPage(input: { title: string; path: string; api: string; args: CalendarArgs; fragments: Fragments }): string {
  const hidden: Array<{ name: string; value: string }> = [];
  for (const [taxonomy, ids] of Object.entries(input.args.taxFilter))
    for (const id of ids) hidden.push({ name: `tax_filter[${taxonomy}][]`, value: String(id) });
  if (input.args.past) hidden.push({ name: 'past', value: '1' });
  if (input.args.archive) {
    hidden.push({ name: 'archive_taxonomy', value: input.args.archive.taxonomy });
    hidden.push({ name: 'archive_term_id', value: String(input.args.archive.termId) });
  }
  return eta.render(pageTemplate, { ...input, hidden, style: STYLE });
}
