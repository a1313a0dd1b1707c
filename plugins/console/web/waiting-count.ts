import { useEffect, useState } from 'preact/hooks';
import { call, inBackground } from './api.js';
import { REVIEW_CHANGED } from './review-card.js';

/** How often the navigation's badge reads the count again (a decision elsewhere, a run starting to wait). */
const EVERY = 10_000;

/**
 * How many jobs wait for review (GET /jobs?status=waiting, its `total`), for the
 * navigation's badge; null while unknown, or when `enabled` is false (a user who may not
 * decide: the route needs manage_options). Read again on a timer (as background reads,
 * which do not keep a session alive) and at once after a decision made on this page.
 */
export function useWaitingCount(enabled: boolean): number | null {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    if (!enabled) {
      setCount(null);
      return undefined;
    }
    let live = true;
    const read = () =>
      inBackground(() => call<{ total: number }>('GET', '/jobs', { query: { status: 'waiting', per_page: 1 } })).then(
        (res) => live && setCount(res.total),
        () => undefined,
      );
    void read();
    const timer = setInterval(() => void read(), EVERY);
    addEventListener(REVIEW_CHANGED, read);
    return () => {
      live = false;
      clearInterval(timer);
      removeEventListener(REVIEW_CHANGED, read);
    };
  }, [enabled]);
  return count;
}
