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
  const hash = location.hash.replace(/^#/, '') || '/flows';
  const [path = '', search = ''] = hash.split('?');
  return { path: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const changed = () => setRoute(current());
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
