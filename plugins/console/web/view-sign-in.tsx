import { useState } from 'preact/hooks';
import { call, type Session } from './api.js';
import { ErrorNote, PasswordField, useAction } from './components.js';

/** Sign in with the login and password (or, before one is set, an application password). */
export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [login, setLogin] = useState('admin');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    await action.run(async () => {
      const res = await call<{ data: Session }>('POST', '/session', { body: { login, password } });
      onSignedIn(res.data);
    });
  };
  return (
    <main class="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Flowhost</h1>
        <label>
          Login
          <input
            name="login"
            autocomplete="username"
            required
            value={login}
            onInput={(e) => setLogin((e.target as HTMLInputElement).value)}
          />
        </label>
        <PasswordField value={password} onValue={setPassword} />
        <ErrorNote error={action.error} />
        <button type="submit" class="primary" disabled={action.busy}>
          {action.busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="hint">
          First time here? Sign in as <code>admin</code> with the password the first start wrote to <code>data/initial-admin-password</code>{' '}
          in the directory Flowhost runs from; you will then choose a password of your own.
        </p>
      </form>
    </main>
  );
}
