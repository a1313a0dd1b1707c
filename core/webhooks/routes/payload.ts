/** What the flow receives of a trigger's body: a form as an object, or JSON. */
import { allValues, mediaType, parseJsonInput } from '../../kernel/request-input.js';

/** A form as an object: a name sent once is a string, a repeated name an array of its values. */
export function formObject(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [name, values] of Object.entries(allValues(new URLSearchParams(text)))) out[name] = values.length === 1 ? values[0]! : values;
  return out;
}

/** The payload a flow receives: a form, or JSON within the input limits (any other type is read as JSON). */
export function decodePayload(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
  if (raw.length === 0) return {};
  if (mediaType(contentType) === 'application/x-www-form-urlencoded') return formObject(raw.toString('utf8'));
  const parsed = parseJsonInput(raw.toString('utf8'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { items: parsed };
  return parsed as Record<string, unknown>;
}
