import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, inBackground } from './api.js';

/** Loads data for a view; `every` re-reads it on a timer while the view is open (live status). */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
  every?: number,
): { data: T | undefined; error: ApiFailure | undefined; reload: () => Promise<void> } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiFailure>();
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    try {
      const value = await load();
      if (mine === latest.current) {
        setData(value);
        setError(undefined);
      }
    } catch (failure) {
      if (mine === latest.current) setError(asFailure(failure));
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  // Apart from the first read: a page that stops polling (its run ended) must not read once
  // more, which could show a change made elsewhere meanwhile under the user's pointer.
  useEffect(() => {
    if (!every) return undefined;
    const timer = setInterval(() => void inBackground(reload), every);
    return () => clearInterval(timer);
  }, [reload, every]);
  return { data, error, reload };
}

export function asFailure(error: unknown): ApiFailure {
  return error instanceof ApiFailure ? error : new ApiFailure(error instanceof Error ? error.message : String(error), 'error', 0);
}

/** An API error in words, where the user looks: next to what caused it. */
export function ErrorNote({ error }: { error: ApiFailure | undefined }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error.message} <span class="code">({error.code})</span>
    </p>
  );
}

/** Runs an action with a busy state and its error shown beside the form that started it. */
export function useAction(): {
  busy: boolean;
  error: ApiFailure | undefined;
  run: (action: () => Promise<void>) => Promise<boolean>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiFailure>();
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(asFailure(failure));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(undefined) };
}

/** A destructive button that asks once, in place (no modal dialog to trap focus in). */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  busy,
  dismissLabel = 'Cancel',
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  /** The button that backs out (say "Keep it running" where the action itself is a cancel). */
  dismissLabel?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <button type="button" class="danger" onClick={() => setAsking(true)} disabled={busy}>
        {label}
      </button>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: an inline confirmation beside its button; a fieldset would break the line
    <span class="confirm" role="group" aria-label={confirmLabel}>
      <span>{confirmLabel}</span>
      <button
        type="button"
        class="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {label.toLowerCase()}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        {dismissLabel}
      </button>
    </span>
  );
}

export function Status({ value }: { value: string | null | undefined }) {
  const text = value ?? 'never run';
  return <span class={`status status-${text.replace(/[^a-z_]/g, '')}`}>{text.replace(/_/g, ' ')}</span>;
}

export function Page({ title, actions, children }: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Flowhost`;
  }, [title]);
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title" tabIndex={-1}>
          {title}
        </h1>
        {actions ? <div class="actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

export function Loading() {
  return (
    <p class="loading" aria-live="polite">
      Loading…
    </p>
  );
}

/** A labelled password field bound to a string state (sign-in, sign-in again). */
export function PasswordField({
  label = 'Password',
  value,
  onValue,
  autocomplete = 'current-password',
}: {
  label?: string;
  value: string;
  onValue: (value: string) => void;
  autocomplete?: 'current-password' | 'new-password';
}) {
  return (
    <label>
      {label}
      <input
        name="password"
        type="password"
        autocomplete={autocomplete}
        required
        value={value}
        onInput={(e) => onValue((e.target as HTMLInputElement).value)}
      />
    </label>
  );
}
