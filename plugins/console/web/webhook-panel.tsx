import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmButton, ErrorNote, useAction, useLoad } from './components.js';
import type { WebhookPreset, WebhookStatus, WebhookTemplate } from './model.js';
import { WebhookSettings, type Outcome } from './webhook-settings.js';

/**
 * A flow's webhook trigger: enable it (bearer, or HMAC with a preset or the generic
 * template), and while it is on, its URL, a command that triggers it, the token or secret
 * just made, rotation, rate limit and disabling. The API answers a token or secret once;
 * the panel keeps it only in its own state, so a reload, or another flow, never shows it.
 */
export interface Fresh {
  kind: 'token' | 'secret';
  value: string;
  id?: string;
}

/** HMAC with no preset plugin loaded: SHA-256 of the raw body, hex, `X-Signature: sha256=…`. */
export const GENERIC_TEMPLATE: WebhookTemplate = {
  mode: 'hmac',
  algo: 'sha256',
  signed_template: '{body}',
  signature_source: { header: 'X-Signature', extract: { kind: 'prefix', key: 'sha256=' }, encoding: 'hex' },
  max_body_bytes: 1048576,
};

export function WebhookPanel({ flowId }: { flowId: number }) {
  const status = useLoad(() => call<{ data: WebhookStatus }>('GET', `/flows/${flowId}/webhook`), [flowId]);
  const [fresh, setFresh] = useState<Fresh>();
  const [warnings, setWarnings] = useState<string[]>([]);
  const [said, setSaid] = useState('');
  const action = useAction();
  // A new token or secret replaces the one shown; other changes leave it on screen.
  const after = async (outcome: Outcome) => {
    if (outcome.fresh) setFresh(outcome.fresh);
    setWarnings(outcome.answer?.warnings ?? []);
    setSaid(outcome.said ?? '');
    await status.reload();
  };
  const s = status.data?.data;
  return (
    <section class="card webhook" aria-labelledby="webhook-title">
      <h2 id="webhook-title">Webhook</h2>
      <ErrorNote error={status.error ?? action.error} />
      {said ? (
        <p class="ok" role="status">
          {said}
        </p>
      ) : null}
      {warnings.map((w) => (
        <p key={w} class="warn-text" role="status">
          {w}
        </p>
      ))}
      {!s ? null : !s.enabled ? (
        <EnableForm
          busy={action.busy}
          onEnable={(body) =>
            void action.run(async () => {
              const res = await call<{ data: { token?: string; secret?: { id: string; value: string } }; warnings?: string[] }>(
                'PUT',
                `/flows/${flowId}/webhook`,
                { body },
              );
              const fresh: Fresh | undefined = res.data.token
                ? { kind: 'token', value: res.data.token }
                : res.data.secret
                  ? { kind: 'secret', value: res.data.secret.value, id: res.data.secret.id }
                  : undefined;
              await after({ fresh, answer: res, said: 'Webhook enabled.' });
            })
          }
        />
      ) : (
        <>
          <WebhookSettings
            flowId={flowId}
            status={s}
            fresh={fresh}
            busy={action.busy}
            run={(work) => void action.run(async () => after(await work()))}
            onHide={() => setFresh(undefined)}
          />
          <p class="actions">
            <ConfirmButton
              label="Disable webhook"
              confirmLabel="Disable the trigger and forget its token and secrets?"
              busy={action.busy}
              onConfirm={() =>
                void action.run(async () => {
                  await call('DELETE', `/flows/${flowId}/webhook`);
                  setFresh(undefined);
                  await after({ said: 'Webhook disabled.' });
                })
              }
            />
          </p>
        </>
      )}
    </section>
  );
}

type EnableBody = { mode: 'bearer' } | { mode: 'hmac'; preset?: string; template?: WebhookTemplate; secret?: string };

function EnableForm({ busy, onEnable }: { busy: boolean; onEnable: (body: EnableBody) => void }) {
  // Always answers; the list is empty unless the webhook-presets plugin is loaded.
  const presets = useLoad(() => call<{ data: WebhookPreset[] }>('GET', '/webhook-presets'), []);
  const [choice, setChoice] = useState('bearer');
  const [secret, setSecret] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    if (choice === 'bearer') return onEnable({ mode: 'bearer' });
    // Senders such as GitHub let you choose the secret, others (Stripe) give you theirs.
    const given = secret ? { secret } : {};
    onEnable(
      choice === 'hmac'
        ? { mode: 'hmac', template: GENERIC_TEMPLATE, ...given }
        : { mode: 'hmac', preset: choice.replace(/^preset:/, ''), ...given },
    );
  };
  return (
    <form class="inline" onSubmit={submit} aria-label="Enable the webhook">
      <p class="muted">Off: no request can start this flow from outside.</p>
      <label>
        Authentication
        <select name="webhook_mode" value={choice} onChange={(e) => setChoice((e.target as HTMLSelectElement).value)}>
          <option value="bearer">Bearer token</option>
          <option value="hmac">HMAC signature (X-Signature: sha256=…)</option>
          {(presets.data?.data ?? []).map((p) => (
            <option key={p.slug} value={`preset:${p.slug}`}>
              HMAC: {p.label}
            </option>
          ))}
        </select>
      </label>
      {choice !== 'bearer' ? (
        <label>
          Secret <span class="hint">(empty: one is generated)</span>
          <input
            name="webhook_secret"
            type="password"
            autocomplete="off"
            value={secret}
            onInput={(e) => setSecret((e.target as HTMLInputElement).value)}
          />
        </label>
      ) : null}
      <button type="submit" class="primary" disabled={busy}>
        Enable webhook
      </button>
      <ErrorNote error={presets.error} />
    </form>
  );
}
