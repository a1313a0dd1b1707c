import { createHash, createHmac } from 'node:crypto';
import { defineVerifier, safeEqual } from '../../sdk/index.js';

/**
 * Twilio's request signature: base64 HMAC-SHA1, keyed by the auth token, over the full URL
 * followed by every POST parameter as name+value, sorted by name (values of a repeated name
 * sorted too). The template language cannot sort parameters, hence a verifier.
 * JSON webhooks instead carry `bodySHA256` in the URL: the URL alone is signed and the
 * body must hash to that value.
 */
export function twilioSignature(authToken: string, url: string, params: ReadonlyArray<[string, string]>): string {
  const byName = new Map<string, string[]>();
  for (const [name, value] of params) byName.set(name, [...(byName.get(name) ?? []), value]);
  let data = url;
  for (const name of [...byName.keys()].sort()) for (const value of byName.get(name)!.sort()) data += name + value;
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

// Twilio's own libraries accept the URL with and without the default port, because
// proxies differ on whether the sender's URL kept it.
function urlVariants(url: string): string[] {
  const match = /^(https?):\/\/([^/?#:]+)(?::(\d+))?(.*)$/i.exec(url);
  if (!match) return [url];
  const [, scheme, host, port, rest] = match as unknown as [string, string, string, string | undefined, string];
  const defaultPort = scheme.toLowerCase() === 'https' ? '443' : '80';
  if (port !== undefined && port !== defaultPort) return [url];
  return [`${scheme}://${host}${rest}`, `${scheme}://${host}:${defaultPort}${rest}`];
}

function formParams(rawBody: Buffer, contentType: string | undefined): Array<[string, string]> {
  if (!contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded')) return [];
  return [...new URLSearchParams(rawBody.toString('utf8')).entries()];
}

export const twilioVerifier = defineVerifier({
  mode: 'twilio',
  label: 'Twilio (X-Twilio-Signature)',
  verify({ rawBody, headers, url, secrets }) {
    const signature = headers['x-twilio-signature'];
    if (!signature) return { ok: false, reason: 'header X-Twilio-Signature missing' };
    const bodyHash = new URL(url, 'http://invalid').searchParams.get('bodySHA256');
    if (bodyHash !== null && !safeEqual(createHash('sha256').update(rawBody).digest('hex'), bodyHash.toLowerCase())) {
      return { ok: false, reason: 'the body does not hash to the bodySHA256 of the URL' };
    }
    const params = bodyHash === null ? formParams(rawBody, headers['content-type']) : [];
    // Every secret against every URL form, no early exit: timing tells nothing of which matched.
    let ok = false;
    for (const secret of secrets)
      for (const variant of urlVariants(url)) if (safeEqual(twilioSignature(secret, variant, params), signature)) ok = true;
    return ok
      ? { ok: true }
      : {
          ok: false,
          reason: `X-Twilio-Signature does not match any active secret for ${url} (check the public URL the host is configured with)`,
        };
  },
});
