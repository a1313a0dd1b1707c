import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ErrorNote, Loading, Page, useLoad } from './components.js';
import { CredentialCard } from './credential-card.js';
import type { HandlerSummary } from './model.js';

/** Every handler that needs credentials, each with its connection (#/credentials). */
export function Credentials() {
  const handlers = useLoad(() => call<{ data: Record<string, HandlerSummary> }>('GET', '/handlers'), []);
  // Bumped by any card's change, so cards sharing a provider's credentials all re-read.
  const [revision, setRevision] = useState(0);
  const needing = Object.entries(handlers.data?.data ?? {}).filter(([, handler]) => handler.requires_auth);
  return (
    <Page title="Credentials">
      <p class="lead">The accounts and keys handlers publish and fetch with. Secrets are stored sealed and only ever shown masked.</p>
      <ErrorNote error={handlers.error} />
      {!handlers.data ? (
        handlers.error ? null : (
          <Loading />
        )
      ) : needing.length === 0 ? (
        <p class="empty">No handler of this deployment needs credentials.</p>
      ) : (
        needing.map(([slug, handler]) => (
          <CredentialCard key={slug} slug={slug} handler={handler} revision={revision} onChanged={() => setRevision((r) => r + 1)} />
        ))
      )}
    </Page>
  );
}
