/**
 * The paging headers of a wp/v2 list, as WP_REST_Posts_Controller::get_items sends them:
 * X-WP-Total, X-WP-TotalPages, and a `Link` with rel="prev" / rel="next" built from the
 * collection's address and the query the client sent (its own parameters kept, `page`
 * replaced), so a client pages by following links (api-fetch's fetchAllMiddleware does).
 */
import type { ResponseHeader, RouteRequest } from '../kernel/routes.js';

/** The headers `pagingHeaders` sets, as a list route declares them (`schema.responseHeaders[200]`). */
export const PAGING_HEADERS: Readonly<Record<string, ResponseHeader>> = {
  'X-WP-Total': { description: 'How many items the query matches, over every page', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'X-WP-TotalPages': { description: 'How many pages of `per_page` items there are', schema: { type: 'string', pattern: '^[0-9]+$' } },
  Link: { description: 'The previous and next pages (`rel="prev"`, `rel="next"`), when there are', schema: { type: 'string' } },
};

/** A creation's `Location`: the new item's own address. */
export const LOCATION_HEADER: Readonly<Record<string, ResponseHeader>> = {
  Location: { description: "The created item's address", schema: { type: 'string', format: 'uri' } },
};

type Request = Pick<RouteRequest, 'url'>;

export function pagingHeaders(
  request: Request,
  collectionUrl: string,
  total: number,
  perPage: number,
  page: number,
): Record<string, string | string[]> {
  const totalPages = Math.ceil(total / perPage);
  const headers: Record<string, string | string[]> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) };
  const at = request.url.indexOf('?');
  const given = new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1));
  const linkTo = (target: number) => {
    const params = new URLSearchParams(given);
    params.set('page', String(target));
    return `${collectionUrl}?${params.toString()}`;
  };
  const links: string[] = [];
  // WordPress: a page past the end still points back to the last page.
  if (page > 1) links.push(`<${linkTo(Math.min(page - 1, Math.max(totalPages, 1)))}>; rel="prev"`);
  if (totalPages > page) links.push(`<${linkTo(page + 1)}>; rel="next"`);
  if (links.length) headers.Link = links;
  return headers;
}
