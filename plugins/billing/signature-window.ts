/**
 * The future half of Stripe's timestamp tolerance. `webhooks.constructEvent` refuses a
 * signature older than the tolerance but accepts any timestamp ahead of now, so a header
 * signed for an hour from now (a leaked one, or a sender with a wrong clock) would verify
 * until then. Called after the signature matched: the `t=` read here is the signed one.
 */

/**
 * The `t=` of a Stripe-Signature header (`t=1700000000,v1=...`), read exactly as the
 * stripe package's parseHeader reads it (the last `t=` wins, parseInt), so this checks
 * the very timestamp the signature was verified with. Null when there is none.
 */
export function signedTimestamp(header: string): number | null {
  let timestamp: number | null = null;
  for (const item of header.split(',')) {
    const kv = item.split('=');
    if (kv[0] === 't') timestamp = Number.parseInt(kv[1] ?? '', 10);
  }
  return timestamp === null || Number.isNaN(timestamp) ? null : timestamp;
}

/** Why the timestamp is too far ahead of `nowSeconds`, or null when within `toleranceSeconds`. */
export function futureTimestampProblem(header: string, nowSeconds: number, toleranceSeconds: number): string | null {
  const signedAt = signedTimestamp(header);
  if (signedAt === null) return 'no timestamp in the Stripe-Signature header';
  const ahead = signedAt - nowSeconds;
  return ahead > toleranceSeconds ? `timestamp ${ahead} s in the future, outside the tolerance zone (${toleranceSeconds} s)` : null;
}
