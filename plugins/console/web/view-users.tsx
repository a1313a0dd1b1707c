import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmButton, ErrorNote, Loading, Page, useAction, useLoad } from './components.js';
import { when } from './format.js';
import { href } from './router.js';
import { ROLES, roleOpens } from './access.js';

interface User {
  user_id: number;
  login: string;
  role: string;
  has_password: boolean;
  created_at: string;
}
interface AppPassword {
  uuid: string;
  name: string;
  bearer: boolean;
  created_at: string;
  last_used_at: string | null;
}

/** A new application password as the API answers it: the password and the same as a bearer token. */
interface NewSecret {
  password: string;
  token: string;
}

/** Users and their application passwords (administrators); a new password is shown once. */
export function Users({ id }: { id?: number }) {
  const users = useLoad(() => call<{ data: User[] }>('GET', '/users'), []);
  const [login, setLogin] = useState('');
  // No role preselected: what each opens in the console is listed beside the choice.
  const [role, setRole] = useState('');
  const [shown, setShown] = useState<{ login: string } & NewSecret>();
  const action = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const res = await call<{ data: { user: User; application_password: NewSecret } }>('POST', '/users', {
        body: { login, role },
      });
      const { password, token } = res.data.application_password;
      setShown({ login: res.data.user.login, password, token });
      setLogin('');
      await users.reload();
    });
  };
  return (
    <Page title="Users">
      <form class="inline card" onSubmit={create} aria-label="New user">
        <label>
          Login
          <input
            name="login"
            required
            maxLength={60}
            autocomplete="off"
            value={login}
            onInput={(e) => setLogin((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          Role
          <select
            name="role"
            required
            value={role}
            aria-describedby="role-help"
            onChange={(e) => setRole((e.target as HTMLSelectElement).value)}
          >
            <option value="" disabled>
              Choose a role…
            </option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary" disabled={action.busy}>
          Create user
        </button>
        <div id="role-help" class="role-help muted">
          <p>What each role opens in this console (only administrators run flows from it):</p>
          <ul class="plain">
            {ROLES.map((r) => (
              <li key={r} aria-current={r === role ? 'true' : undefined}>
                <strong>{r}</strong>: {roleOpens(r)}
              </li>
            ))}
          </ul>
        </div>
      </form>
      <ErrorNote error={action.error ?? users.error} />
      {shown ? (
        <OnceSecret
          what={`${shown.login}'s application password`}
          value={shown.password}
          token={shown.token}
          note={`${shown.login} signs in to the console with it once, then chooses a password; API clients use it as is.`}
        />
      ) : null}
      {!users.data ? (
        users.error ? null : (
          <Loading />
        )
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Login</th>
              <th scope="col">Role</th>
              <th scope="col">Password</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {users.data.data.map((u) => (
              <tr key={u.user_id}>
                <td>
                  <a href={href(`/users/${u.user_id}`)}>{u.login}</a>
                </td>
                <td>{u.role}</td>
                <td>{u.has_password ? 'set' : 'not yet'}</td>
                <td>{when(u.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {id && users.data ? <UserDetail user={users.data.data.find((u) => u.user_id === id)} onChanged={() => void users.reload()} /> : null}
    </Page>
  );
}

/**
 * A secret the API shows once: shown here once too, with the advice to keep it now; an
 * application password with the same as a bearer token (for clients that send no login).
 */
export function OnceSecret({ what, value, token, note }: { what: string; value: string; token?: string; note?: string }) {
  return (
    <div class="card once" role="status">
      <p>
        <strong>{what}</strong> (shown once; copy it now):
      </p>
      <p>
        <code class="secret" data-secret="password">
          {value}
        </code>
      </p>
      {token ? (
        <>
          <p>
            The same as a bearer token (<code>Authorization: Bearer …</code>, without the login; MCP clients):
          </p>
          <p>
            <code class="secret" data-secret="token">
              {token}
            </code>
          </p>
        </>
      ) : null}
      {note ? <p class="muted">{note}</p> : null}
    </div>
  );
}

function UserDetail({ user, onChanged }: { user: User | undefined; onChanged: () => void }) {
  const passwords = useLoad(
    () => (user ? call<{ data: AppPassword[] }>('GET', `/users/${user.user_id}/application-passwords`) : Promise.resolve({ data: [] })),
    [user?.user_id],
  );
  const [name, setName] = useState('');
  const [created, setCreated] = useState<NewSecret>();
  const [ended, setEnded] = useState<string>();
  const action = useAction();
  if (!user) return <p role="alert">No such user.</p>;
  const add = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const res = await call<{ data: NewSecret }>('POST', `/users/${user.user_id}/application-passwords`, { body: { name } });
      setCreated(res.data);
      setName('');
      await passwords.reload();
    });
  };
  return (
    <section class="card" aria-labelledby="user-title">
      <h2 id="user-title">{user.login}</h2>
      <ErrorNote error={action.error ?? passwords.error} />
      <h3>Application passwords</h3>
      {created ? <OnceSecret what="The new application password" value={created.password} token={created.token} /> : null}
      <ul class="plain">
        {(passwords.data?.data ?? []).map((p) => (
          <li key={p.uuid}>
            {p.name}{' '}
            <span class="muted">
              created {when(p.created_at)}, last used {when(p.last_used_at)}
              {p.bearer ? '' : ' (Basic only: made before bearer tokens)'}
            </span>{' '}
            <ConfirmButton
              label="Revoke"
              confirmLabel={`Revoke “${p.name}”? Clients using it stop working; console sessions opened with it end.`}
              busy={action.busy}
              onConfirm={() =>
                void action.run(async () => {
                  await call('DELETE', `/users/${user.user_id}/application-passwords/${p.uuid}`);
                  await passwords.reload();
                })
              }
            />
          </li>
        ))}
      </ul>
      <form class="inline" onSubmit={add} aria-label="New application password">
        <label>
          Name
          <input
            name="name"
            required
            maxLength={100}
            value={name}
            placeholder="e.g. deploy script"
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          Create application password
        </button>
      </form>
      <h3>Sessions</h3>
      <p>
        <ConfirmButton
          label="End sessions"
          confirmLabel={`Sign ${user.login} out of the console everywhere? Application passwords keep working.`}
          busy={action.busy}
          onConfirm={() =>
            void action.run(async () => {
              const res = await call<{ message: string }>('DELETE', `/users/${user.user_id}/sessions`);
              setEnded(res.message);
            })
          }
        />{' '}
        {ended ? (
          <span class="ok" role="status">
            {ended}
          </span>
        ) : null}
      </p>
      <p>
        <ConfirmButton
          label="Delete user"
          confirmLabel={`Delete ${user.login}, their sessions and application passwords?`}
          busy={action.busy}
          onConfirm={() =>
            void action.run(async () => {
              await call('DELETE', `/users/${user.user_id}`);
              onChanged();
              location.hash = '#/users';
            })
          }
        />
      </p>
    </section>
  );
}
