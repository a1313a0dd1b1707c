import { useState } from 'preact/hooks';
import { call, type Session } from './api.js';
import { ErrorNote, Page, useAction } from './components.js';

/** Choose a password (first sign-in) or change it; the answer is a fresh session. */
export function SetPassword({ session, onChanged }: { session: Session; onChanged: (session: Session) => void }) {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [done, setDone] = useState(false);
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    await action.run(async () => {
      if (password !== repeat) throw new Error('The two new passwords differ.');
      const body = session.has_password ? { password, current_password: current } : { password };
      const res = await call<{ data: Session }>('PUT', '/session/password', { body });
      setDone(true);
      onChanged(res.data);
    });
  };
  return (
    <Page title={session.has_password ? 'Change your password' : 'Choose your password'}>
      {!session.has_password ? (
        <p>
          You signed in with an application password. Choose a password for the console (at least 8 characters); application passwords keep
          working for API clients and the CLI.
        </p>
      ) : null}
      <form class="card narrow" onSubmit={submit}>
        <input type="text" name="username" autocomplete="username" value={session.login} hidden readOnly />
        {session.has_password ? (
          <label>
            Current password
            <input
              type="password"
              autocomplete="current-password"
              required
              value={current}
              onInput={(e) => setCurrent((e.target as HTMLInputElement).value)}
            />
          </label>
        ) : null}
        <label>
          New password
          <input
            type="password"
            autocomplete="new-password"
            minLength={8}
            required
            value={password}
            onInput={(e) => setPassword((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          New password again
          <input
            type="password"
            autocomplete="new-password"
            minLength={8}
            required
            value={repeat}
            onInput={(e) => setRepeat((e.target as HTMLInputElement).value)}
          />
        </label>
        <ErrorNote error={action.error} />
        {done ? (
          <p class="ok" role="status">
            Password set.
          </p>
        ) : null}
        <button type="submit" class="primary" disabled={action.busy}>
          Save password
        </button>
      </form>
    </Page>
  );
}
