/**
 * The browser authorization of an OAuth handler in a popup. The host's last screen in the
 * popup posts `{type: 'flowhost-auth', handler_slug, success, message}` to its opener on
 * the same origin and closes itself (core/credentials/auth-pages.ts); a user may also
 * close the popup first. Either ends the wait, so the caller re-reads the status.
 */
export interface PopupReport {
  success: boolean;
  message: string;
}

interface AuthMessage {
  type: 'flowhost-auth';
  handler_slug: string;
  success: boolean;
  message: string;
}

const isAuthMessage = (data: unknown): data is AuthMessage => {
  const m = data as Partial<AuthMessage> | null;
  return (
    !!m &&
    m.type === 'flowhost-auth' &&
    typeof m.handler_slug === 'string' &&
    typeof m.success === 'boolean' &&
    typeof m.message === 'string'
  );
};

/** How often to look whether the user closed the popup (no event tells the opener). */
const CLOSED_POLL_MS = 400;

/**
 * Opens `path` (same origin: the opener must stay reachable for postMessage, so no
 * noopener) and resolves with the popup's report, or null when it was closed without one.
 * Returns null at once when the browser blocked the popup.
 */
export function authorizeInPopup(path: string, slug: string): Promise<PopupReport | null> | null {
  // A name per handler: a second click brings back the same window instead of another.
  const popup = window.open(path, `flowhost-auth-${slug}`, 'popup,width=600,height=720');
  if (!popup) return null;
  return new Promise((resolve) => {
    const finish = (report: PopupReport | null) => {
      removeEventListener('message', onMessage);
      clearInterval(timer);
      resolve(report);
    };
    // Only this popup's report for this handler counts: any page may post to this window.
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== location.origin || event.source !== popup || !isAuthMessage(event.data) || event.data.handler_slug !== slug)
        return;
      finish({ success: event.data.success, message: event.data.message });
    };
    addEventListener('message', onMessage);
    const timer = setInterval(() => {
      if (popup.closed) finish(null);
    }, CLOSED_POLL_MS);
  });
}

/** The popup's address on this origin, from the status's `oauth_url` (the host's public URL). */
export function popupPath(oauthUrl: string): string {
  const url = new URL(oauthUrl, location.href);
  return `${url.pathname}${url.search}`;
}
