import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes (#/flows/3): the server serves one page, and every view has an address a
 * user can bookmark, reload and go back to.
 */
export interface Route {
  path: string[];
  query: URLSearchParams;
}

function current(): Route {
  // No hash: the user's start page (main.tsx picks the first page they may open).
  const hash = location.hash.replace(/^#/, '');
  const [path = '', search = ''] = hash.split('?');
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

/** What a page with unsaved work says before the route changes; null when there is none. */
let leaveGuard: (() => string | null) | null = null;

export function setLeaveGuard(guard: (() => string | null) | null): void {
  leaveGuard = guard;
}

/** Whether the user lets the page go (asked only when it has unsaved work). */
export function mayLeave(): boolean {
  const warning = leaveGuard?.();
  return !warning || confirm(warning);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    // A link, Back or navigate() has already changed the address when hashchange fires:
    // a refusal puts the page's own address back (no second hashchange) and keeps the view.
    let shown = location.href;
    const changed = () => {
      if (location.href === shown) return;
      if (!mayLeave()) {
        history.replaceState(history.state, '', shown);
        return;
      }
      shown = location.href;
      setRoute(current());
    };
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export function href(path: string, query?: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') q.set(k, String(v));
  const text = q.toString();
  return `#${path}${text ? `?${text}` : ''}`;
}

export function navigate(path: string, query?: Record<string, string | number | undefined>): void {
  location.hash = href(path, query);
}
