/**
 * A deep copy in which no sealed value survives: a whole sealed string, or a URL whose
 * userinfo is sealed, becomes the mask. What plugins are handed (core/flows/plugin-view.ts)
 * goes through it last, so a field the view's author did not think of still carries no
 * ciphertext a vault could be asked to open.
 */
import { looksSealed } from './vault.js';
import { urlCredentials, withUserinfo } from './url-credentials.js';

const MASK = '••••••••';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

export function withoutSealed<T>(value: T): T {
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') {
      if (looksSealed(item)) return MASK;
      const url = urlCredentials(item);
      return url && looksSealed(url.userinfo) ? withUserinfo(url, MASK) : item;
    }
    if (Array.isArray(item)) return item.map(walk);
    if (isPlainObject(item)) return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, walk(v)]));
    return item;
  };
  return walk(value) as T;
}
