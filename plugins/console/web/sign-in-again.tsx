import { useEffect, useRef, useState } from 'preact/hooks';
import { call, type Session } from './api.js';
import { ErrorNote, PasswordField, useAction } from './components.js';

/**
 * The session ended (idle, its lifetime, or ended elsewhere) while a page was open: a modal
 * dialog over the page asks for the same user's password. The page stays mounted under it,
 * so what was typed there is still there; the call that found the session gone is sent
 * again once signed in. "Sign out" gives up: the page is left for the sign-in form.
 */
export function SignInAgain({
  login,
  onSignedIn,
  onGiveUp,
}: {
  login: string;
  onSignedIn: (session: Session) => void;
  onGiveUp: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [password, setPassword] = useState('');
  const action = useAction();
  useEffect(() => {
    // showModal: the page behind is inert (no focus, no clicks) but keeps its state.
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    await action.run(async () => {
      const res = await call<{ data: Session }>('POST', '/session', { body: { login, password } });
      onSignedIn(res.data);
    });
  };
  return (
    <dialog
      ref={dialog}
      class="sign-in-again"
      aria-labelledby="sign-in-again-title"
      // Escape would close the dialog and leave a page whose every call fails.
      onCancel={(event) => event.preventDefault()}
    >
      <form onSubmit={submit}>
        <h2 id="sign-in-again-title">Sign in again</h2>
        <p>
          Your session has ended. Sign in as <strong>{login}</strong> to carry on: this page and what you typed on it stay as they are.
        </p>
        <input type="text" name="username" autocomplete="username" value={login} hidden readOnly />
        <PasswordField value={password} onValue={setPassword} />
        <ErrorNote error={action.error} />
        <div class="actions">
          <button type="submit" class="primary" disabled={action.busy}>
            {action.busy ? 'Signing in…' : 'Sign in'}
          </button>
          <button type="button" onClick={onGiveUp}>
            Sign out
          </button>
        </div>
      </form>
    </dialog>
  );
}
