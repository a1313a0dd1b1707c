import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmButton, ErrorNote, Loading, Status, useAction, useLoad } from './components.js';
import { fieldLabel } from './credential-fields.js';
import { CredentialsForm } from './credentials-form.js';
import type { AuthStatus, HandlerSummary } from './model.js';
import { authorizeInPopup, popupPath } from './oauth-popup.js';

interface Note {
  ok: boolean;
  text: string;
}

/**
 * One handler's credentials: its connection status (GET /auth/{slug}/status), the form
 * for its keys, Connect (OAuth, in a popup) and Disconnect. `revision` changes when any
 * card changed something: handlers can share a provider's credentials (`threaded` uses
 * `social`'s), so every card re-reads its status then.
 */
export function CredentialCard({
  slug,
  handler,
  revision,
  onChanged,
}: {
  slug: string;
  handler: HandlerSummary;
  revision: number;
  onChanged: () => void;
}) {
  const status = useLoad(() => call<{ data: AuthStatus }>('GET', `/auth/${encodeURIComponent(slug)}/status`), [slug, revision]);
  const [note, setNote] = useState<Note>();
  const [waiting, setWaiting] = useState(false);
  const disconnect = useAction();
  const headingId = `credentials-${slug}`;
  const fields = handler.auth_fields ?? [];
  const oauth = handler.auth_type === 'oauth1' || handler.auth_type === 'oauth2';
  const s = status.data?.data;

  const connect = async (oauthUrl: string) => {
    setNote(undefined);
    const report = authorizeInPopup(popupPath(oauthUrl), slug);
    if (!report) {
      setNote({ ok: false, text: 'The browser blocked the popup. Allow popups for this site and press Connect again.' });
      return;
    }
    setWaiting(true);
    const outcome = await report;
    setWaiting(false);
    // Closed without a report: the status says whether anything changed.
    if (outcome) setNote({ ok: outcome.success, text: outcome.message });
    onChanged();
  };
  const forget = () =>
    void disconnect.run(async () => {
      const res = await call<{ message: string }>('DELETE', `/auth/${encodeURIComponent(slug)}`);
      setNote({ ok: true, text: res.message });
      onChanged();
    });

  const keysSaved = !!s && fields.every((field) => (s.config_status[field] ?? '') !== '');
  return (
    <section class="card credential" aria-labelledby={headingId}>
      <h2 id={headingId}>{handler.label}</h2>
      <p class="muted">
        {handler.type} handler <code>{slug}</code> · {describe(handler.auth_type)}
      </p>
      <ErrorNote error={status.error} />
      {!s ? (
        status.error ? null : (
          <Loading />
        )
      ) : (
        <>
          <p class="connection">
            <Status value={s.authenticated ? 'connected' : s.error ? 'error' : 'not_connected'} />{' '}
            {s.authenticated && s.account_details?.username ? (
              <>
                as <strong>{s.account_details.username}</strong>
              </>
            ) : null}
            {!s.authenticated && s.error ? (
              <span class="error-text">
                {s.error_message} <span class="muted">({s.error_code})</span>
              </span>
            ) : null}
          </p>
          <dl class="saved" aria-label="Saved credentials">
            {fields.map((field) => (
              <div key={field}>
                <dt>{fieldLabel(field)}</dt>
                <dd>{s.config_status[field] || <span class="muted">not set</span>}</dd>
              </div>
            ))}
          </dl>
          <div class="actions">
            {oauth && s.oauth_url ? (
              <button type="button" class="primary" disabled={!keysSaved || waiting} onClick={() => void connect(s.oauth_url as string)}>
                {waiting ? 'Waiting for the popup…' : s.authenticated ? 'Reconnect' : 'Connect'}
              </button>
            ) : null}
            {s.authenticated || s.error ? (
              <ConfirmButton label="Disconnect" confirmLabel={confirmText(handler)} busy={disconnect.busy} onConfirm={forget} />
            ) : null}
          </div>
          {oauth && !keysSaved ? (
            <p class="hint">Save the application keys first; Connect then opens the provider's sign-in in a popup.</p>
          ) : null}
        </>
      )}
      <ErrorNote error={disconnect.error} />
      {note ? (
        <p class={note.ok ? 'ok' : 'error'} role={note.ok ? 'status' : 'alert'}>
          {note.text}
        </p>
      ) : null}
      <h3>{oauth ? 'Application keys' : 'Account'}</h3>
      <p class="hint">Every field is needed, also to change one: saved values are never shown again.</p>
      <CredentialsForm
        slug={slug}
        label={handler.label}
        fields={fields}
        onSaved={(message) => {
          setNote({ ok: true, text: message });
          onChanged();
        }}
      />
    </section>
  );
}

function describe(type: HandlerSummary['auth_type']): string {
  if (type === 'oauth1') return 'OAuth 1.0a: application keys, then connect an account';
  if (type === 'oauth2') return 'OAuth 2.0: application keys, then connect an account';
  return 'an account name and app password';
}

function confirmText(handler: HandlerSummary): string {
  return handler.auth_type === 'app_password'
    ? `Forget the account of ${handler.label}? Its saved credentials are deleted.`
    : `Disconnect the account of ${handler.label}? The application keys stay.`;
}
