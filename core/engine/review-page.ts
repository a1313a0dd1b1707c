import { htmlToPostText } from '../../sdk/kernel/post-text.js';
import { firstPacket } from '../jobs/review-view.js';
import type { JobReview } from '../jobs/model.js';

/** How much of an item's text the review page shows (characters): enough to judge it, not a whole article. */
const TEXT_SHOWN = 1500;
/** The packet fields read as an item's text, first found. */
const TEXT_FIELDS = ['content', 'description', 'summary', 'text', 'body', 'excerpt'];

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An item's text as a person reads it: its HTML made plain text (html-to-text), cut to TEXT_SHOWN. */
function itemText(json: string): string {
  const data = firstPacket(json)?.data;
  if (!data || typeof data !== 'object') return '';
  const raw = TEXT_FIELDS.map((key) => (data as Record<string, unknown>)[key]).find((v): v is string => typeof v === 'string');
  if (!raw) return '';
  const text = htmlToPostText(raw.slice(0, TEXT_SHOWN * 4));
  return text.length > TEXT_SHOWN ? `${text.slice(0, TEXT_SHOWN)}…` : text;
}

/**
 * The review page's list of what waits for a decision: each pending item's title, its
 * text (plain, escaped: the page never renders the item's markup) and its id, so whoever
 * holds the link sees what they approve or reject.
 */
export function pendingItemsHtml(review: JobReview): string {
  const rows = review.items
    .filter((item) => item.decision === null)
    .map((item) => {
      const text = itemText(item.packet.json);
      return `<li><h2>${escapeHtml(item.title ?? '(untitled)')}</h2>${text ? `<p style="white-space:pre-line">${escapeHtml(text)}</p>` : ''}<p><small>${escapeHtml(item.item_id)}</small></p></li>`;
    });
  return rows.length ? `<ol>${rows.join('')}</ol>` : '';
}
