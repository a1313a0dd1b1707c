/**
 * A publish handler's `textLimit`, enforced by the host: before the handler sees an item,
 * the text it would post (`packetText`: content as plain text, else title, then the link)
 * is made to fit as the built-in handlers make theirs (`fitText`: cut at a word, `…`, the
 * link never cut), counted as the handler says its service counts (`countText`, default
 * graphemes). Shortening, not refusing: a long article still gets its post, as the
 * handlers the spec lists with a limit do. The shortened text stands in the item's
 * `content` (HTML-escaped, so the handler reads back exactly that text); what the handler
 * returns gets the original content back, `metadata.shortened: true` and
 * `data.published_text` (unless the handler set them), so the job says what was cut.
 */
import { fitText, graphemeCount, packetText } from '../kernel/post-text.js';
import type { DataPacket, HandlerDefinition } from '../kernel/contributions.js';

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br>');

export class TextLimitError extends Error {}

/**
 * Runs `publish` on one item made to fit the handler's limit; a handler without one, or an
 * item that fits, goes through untouched.
 */
export async function publishWithinLimit(
  handler: HandlerDefinition,
  packet: DataPacket,
  publish: (packets: DataPacket[]) => Promise<DataPacket[]>,
): Promise<DataPacket[]> {
  const limit = handler.textLimit;
  if (limit === undefined) return publish([packet]);
  const measure = handler.countText ?? graphemeCount;
  const { body, link } = packetText(packet);
  const { text, shortened } = fitText(body, link, limit, measure);
  if (!shortened) return publish([packet]);
  if (measure(text) > limit)
    throw new TextLimitError(
      `the item's link alone is longer than the ${handler.slug} handler's limit of ${limit} characters, so its text cannot be shortened to fit`,
    );
  const tail = link ? ` ${link}` : '';
  const fitted = text.slice(0, text.length - tail.length);
  const data = packet.data as Record<string, unknown>;
  const content = escapeHtml(fitted);
  const output = await publish([{ ...packet, data: { ...data, content } }]);
  return output.map((out) => {
    const outData = { ...(out.data as Record<string, unknown>) };
    // Later steps see the item as it came; the post's text is in published_text.
    if (outData.content === content) {
      if ('content' in data) outData.content = data.content;
      else delete outData.content;
    }
    if (typeof outData.published_text !== 'string') outData.published_text = text;
    const published = typeof out.metadata?.published_id === 'string';
    return { ...out, data: outData, metadata: published ? { ...out.metadata, shortened: true } : out.metadata };
  });
}
