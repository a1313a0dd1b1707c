import { call } from './api.js';
import { ConfirmButton, ErrorNote, useAction } from './components.js';

/** "Sign out everywhere": every session of the signed-in user ends, this one included (DELETE /session/all). */
export function SignOutEverywhere({ onSignedOut }: { onSignedOut: () => void }) {
  const action = useAction();
  const signOut = () =>
    void action.run(async () => {
      await call('DELETE', '/session/all');
      onSignedOut();
    });
  return (
    <section class="card narrow" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p>
        Signed in on another computer, or on one you no longer have? This ends every session of yours, this one too. Application passwords
        keep working.
      </p>
      <ConfirmButton label="Sign out everywhere" confirmLabel="End every session of yours?" onConfirm={signOut} busy={action.busy} />
      <ErrorNote error={action.error} />
    </section>
  );
}
