/**
 * The request line's URL as the request log writes it: the value of every query parameter
 * whose name looks secret (core/security/secret-parameters.ts, the list handler settings
 * use too) is replaced by `[redacted]` (the name stays, so the line still says what was
 * sent). Query strings end up in logs, log shippers and support tickets, where nothing
 * that authenticates may go.
 */
import { isSecretParameter } from '../../core/security/secret-parameters.js';

const REDACTED = '[redacted]';

export function loggableUrl(url: string | undefined): string | undefined {
  const at = url?.indexOf('?') ?? -1;
  if (url === undefined || at < 0) return url;
  const parts = url.slice(at + 1).split('&');
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const equals = part.indexOf('=');
    if (equals < 0 || !isSecretParameter(part.slice(0, equals))) continue;
    parts[i] = `${part.slice(0, equals)}=${REDACTED}`;
    changed = true;
  }
  return changed ? `${url.slice(0, at)}?${parts.join('&')}` : url;
}
