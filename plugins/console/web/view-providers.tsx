import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmButton, ErrorNote, Loading, Page, useAction, useLoad } from './components.js';
import type { Provider, ProvidersData, ProviderTest } from './model.js';

/**
 * The AI providers: a key per provider (write-only), a test call, and the default provider
 * and model. Keys go through PATCH /settings `ai_provider_keys` (what `flowhost providers
 * set-key` sends); the page never reads a key back, not even masked: only whether one is set.
 */
export function Providers() {
  const list = useLoad(() => call<{ data: ProvidersData }>('GET', '/providers'), []);
  if (!list.data) return <Page title="AI providers">{list.error ? <ErrorNote error={list.error} /> : <Loading />}</Page>;
  const { providers, defaults } = list.data.data;
  return (
    <Page title="AI providers">
      <Defaults
        key={`${defaults.provider}/${defaults.model}/${Object.values(providers)
          .map((p) => p.models.length)
          .join()}`}
        providers={providers}
        current={defaults}
        onSaved={list.reload}
      />
      {Object.entries(providers).map(([slug, provider]) => (
        <ProviderCard key={slug} slug={slug} provider={provider} onChanged={list.reload} />
      ))}
    </Page>
  );
}

function Defaults({
  providers,
  current,
  onSaved,
}: {
  providers: Record<string, Provider>;
  current: ProvidersData['defaults'];
  onSaved: () => Promise<void>;
}) {
  const [provider, setProvider] = useState(current.provider);
  const [model, setModel] = useState(current.model);
  const [message, setMessage] = useState('');
  const action = useAction();
  const models = providers[provider]?.models ?? [];
  // A saved model the list no longer offers stays choosable, so saving does not change it silently.
  const options = models.includes(model) || !model ? models : [model, ...models];
  const submit = (event: Event) => {
    event.preventDefault();
    setMessage('');
    void action.run(async () => {
      await call('PATCH', '/settings', { body: { default_provider: provider, default_model: model } });
      setMessage('Defaults saved.');
      await onSaved();
    });
  };
  return (
    <form class="inline card" aria-label="Default provider and model" onSubmit={submit}>
      <label>
        Default provider
        <select
          name="default_provider"
          value={provider}
          onChange={(e) => {
            const next = (e.target as HTMLSelectElement).value;
            setProvider(next);
            setModel(providers[next]?.models[0] ?? '');
          }}
        >
          {Object.entries(providers).map(([slug, p]) => (
            <option key={slug} value={slug}>
              {p.label}
              {p.configured ? '' : ' (no key)'}
            </option>
          ))}
        </select>
      </label>
      <label>
        Default model
        <select name="default_model" value={model} onChange={(e) => setModel((e.target as HTMLSelectElement).value)}>
          {options.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={action.busy}>
        Save defaults
      </button>
      <ErrorNote error={action.error} />
      {message ? (
        <p class="ok" role="status">
          {message}
        </p>
      ) : null}
    </form>
  );
}

function ProviderCard({ slug, provider, onChanged }: { slug: string; provider: Provider; onChanged: () => Promise<void> }) {
  const [key, setKey] = useState('');
  const [message, setMessage] = useState('');
  const [tested, setTested] = useState<ProviderTest>();
  const action = useAction();
  const id = `key-${slug}`;
  const saveKey = (value: string, done: string) =>
    action.run(async () => {
      setMessage('');
      setTested(undefined);
      // The answer carries the keys masked; it is not read, so no part of a key reaches the page.
      await call('PATCH', '/settings', { body: { ai_provider_keys: { [slug]: value } } });
      setKey('');
      setMessage(done);
      await onChanged();
    });
  const test = () =>
    action.run(async () => {
      setMessage('');
      setTested((await call<{ data: ProviderTest }>('POST', `/providers/${encodeURIComponent(slug)}/test`)).data);
    });
  return (
    <section class="card provider" aria-label={provider.label}>
      <h2>
        {provider.label} <span class="muted">({slug})</span>
      </h2>
      <p>
        API key: {provider.configured ? <strong class="ok">set</strong> : <strong>not set</strong>} · {provider.models.length} models
      </p>
      <form
        class="inline"
        aria-label={`${provider.label}: key`}
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim()) void saveKey(key, 'Key saved.');
        }}
      >
        <label for={id}>{provider.configured ? 'Replace the API key' : 'API key'}</label>
        {/* Write-only: a password field the browser neither fills nor offers to remember. */}
        <input
          id={id}
          name={`${slug}_api_key`}
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={key}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
        />
        <button type="submit" disabled={action.busy || !key.trim()}>
          Save key
        </button>
        <button type="button" disabled={action.busy} onClick={() => void test()}>
          Test
        </button>
        {provider.configured ? (
          <ConfirmButton
            label="Remove key"
            confirmLabel={`Remove the ${provider.label} key?`}
            busy={action.busy}
            onConfirm={() => void saveKey('', 'Key removed.')}
          />
        ) : null}
      </form>
      <ErrorNote error={action.error} />
      {message ? (
        <p class="ok" role="status">
          {message}
        </p>
      ) : null}
      {tested ? (
        <p class={tested.ok ? 'ok' : 'error'} role="status">
          {tested.ok ? 'Test passed: ' : 'Test failed: '}
          {tested.message}
          {tested.code ? <span class="code"> ({tested.code})</span> : null}
        </p>
      ) : null}
    </section>
  );
}
