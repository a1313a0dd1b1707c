/**
 * The calendar's HTML fragments, rendered by eta with auto-escaping on: every `<%= %>`
 * is escaped, and the templates never use raw output, so an event titled
 * `<script>alert(1)</script>` is shown as text. Links are built with URLSearchParams
 * before they reach a template (and are escaped there again as attribute values).
 */
import { Eta } from 'eta';

export const eta = new Eta({ autoEscape: true, useWith: false, varName: 'it', cache: false });

export interface EventView {
  id: number;
  title: string;
  link: string;
  excerpt: string;
  /** "19:30" or "19:30 – 22:00", or "All day", or "Until 4 Mar 2026". */
  time: string;
  startIso: string;
  venue: { name: string; city: string } | null;
  ticketUrl: string;
  price: string;
  continues: boolean;
  terms: Array<{ taxonomy: string; name: string }>;
}

export interface DayView {
  day: string;
  label: string;
  events: EventView[];
}

const listTemplate = eta.compile(`<% if (it.days.length === 0) { %>
<p class="fh-empty"><%= it.empty %></p>
<% } else { %>
<% for (const day of it.days) { %>
<section class="fh-day" aria-labelledby="fh-day-<%= day.day %>" data-day="<%= day.day %>">
<h2 class="fh-day-title" id="fh-day-<%= day.day %>"><time datetime="<%= day.day %>"><%= day.label %></time></h2>
<ul class="fh-events">
<% for (const e of day.events) { %>
<li class="fh-event" data-event-id="<%= e.id %>">
<article>
<h3 class="fh-event-title"><a href="<%= e.link %>"><%= e.title %></a></h3>
<p class="fh-event-meta"><time datetime="<%= e.startIso %>"><%= e.time %></time><% if (e.venue) { %> · <span class="fh-venue"><%= e.venue.name %><% if (e.venue.city) { %>, <%= e.venue.city %><% } %></span><% } %><% if (e.price) { %> · <span class="fh-price"><%= e.price %></span><% } %></p>
<% if (e.terms.length) { %><p class="fh-terms"><% for (const t of e.terms) { %><span class="fh-term" data-taxonomy="<%= t.taxonomy %>"><%= t.name %></span> <% } %></p><% } %>
<% if (e.excerpt) { %><p class="fh-excerpt"><%= e.excerpt %></p><% } %>
<% if (e.ticketUrl) { %><p><a class="fh-tickets" href="<%= e.ticketUrl %>" rel="noopener noreferrer">Tickets</a></p><% } %>
</article>
</li>
<% } %>
</ul>
</section>
<% } %>
<% } %>`);

const paginationTemplate = eta.compile(`<% if (it.totalPages > 1) { %>
<nav class="fh-pagination" aria-label="Calendar pages">
<ul>
<% if (it.prev) { %><li><a class="fh-page fh-prev" rel="prev" href="<%= it.prev.href %>" data-paged="<%= it.prev.page %>">Previous</a></li><% } %>
<% for (const p of it.pages) { %>
<% if (p.gap) { %><li><span class="fh-gap" aria-hidden="true">…</span></li><% } else if (p.current) { %><li><a class="fh-page" aria-current="page" href="<%= p.href %>" data-paged="<%= p.page %>"><%= p.page %></a></li><% } else { %><li><a class="fh-page" href="<%= p.href %>" data-paged="<%= p.page %>" aria-label="Page <%= p.page %>"><%= p.page %></a></li><% } %>
<% } %>
<% if (it.next) { %><li><a class="fh-page fh-next" rel="next" href="<%= it.next.href %>" data-paged="<%= it.next.page %>">Next</a></li><% } %>
</ul>
</nav>
<% } %>`);

const navigationTemplate = eta.compile(`<nav class="fh-navigation" aria-label="Upcoming or past events">
<a class="fh-toggle fh-upcoming" href="<%= it.upcomingHref %>" data-past="0"<% if (!it.past) { %> aria-current="true"<% } %>>Upcoming</a>
<a class="fh-toggle fh-past" href="<%= it.pastHref %>" data-past="1"<% if (it.past) { %> aria-current="true"<% } %>>Past</a>
<% if (it.range) { %><span class="fh-range"><%= it.range %></span><% } %>
</nav>`);

const counterTemplate = eta.compile(
  `<p class="fh-counter" aria-live="polite"><% if (it.total === 0) { %>No events<% } else { %><%= it.total %> <%= it.total === 1 ? 'event' : 'events' %><% if (it.totalPages > 1) { %> · page <%= it.page %> of <%= it.totalPages %><% } %><% } %></p>`,
);

// The × after each name comes from the style sheet, so a link's text is the term's name alone.
const activeTemplate = eta.compile(`<% if (it.filters.length) { %>
<div class="fh-active" role="group" aria-labelledby="fh-active-title">
<span id="fh-active-title">Filtered by:</span>
<ul>
<% for (const f of it.filters) { %><li><a class="fh-active-filter" href="<%= f.href %>" data-taxonomy="<%= f.taxonomy %>" data-term-id="<%= f.id %>" aria-label="Remove filter <%= f.taxonomyLabel %>: <%= f.name %>"><%= f.name %></a></li><% } %>
</ul>
</div>
<% } %>`);

export const renderList = (data: { days: DayView[]; empty: string }) => eta.render(listTemplate, data).trim();
export const renderPagination = (data: {
  totalPages: number;
  prev: { href: string; page: number } | null;
  next: { href: string; page: number } | null;
  pages: Array<{ page: number; href: string; current: boolean; gap: boolean }>;
}) => eta.render(paginationTemplate, data).trim();
export const renderNavigation = (data: { past: boolean; upcomingHref: string; pastHref: string; range: string }) =>
  eta.render(navigationTemplate, data).trim();
export const renderCounter = (data: { total: number; page: number; totalPages: number }) => eta.render(counterTemplate, data).trim();
export const renderActive = (data: {
  filters: Array<{ taxonomy: string; taxonomyLabel: string; id: number; name: string; href: string }>;
}) => eta.render(activeTemplate, data).trim();
