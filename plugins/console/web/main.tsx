import { render, type JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, onSessionLost, setNonce, VERSION, type Session } from './api.js';
import { Loading, Page } from './components.js';
import { href, mayLeave, useRoute } from './router.js';
import { allowedSections, type Capabilities, refusal, ROLE_CAPABILITIES, sectionOf } from './access.js';
import { Credentials } from './view-credentials.js';
import { FlowView } from './view-flow.js';
import { Flows } from './view-flows.js';
import { JobView } from './view-job.js';
import { Jobs } from './view-jobs.js';
import { Review } from './view-review.js';
import { useWaitingCount } from './waiting-count.js';
import { Logs } from './view-logs.js';
import { Chat } from './view-chat.js';
import { Providers } from './view-providers.js';
import { Settings } from './view-settings.js';
import { Plugins } from './view-plugins.js';
import { PipelineView } from './view-pipeline.js';
import { Pipelines } from './view-pipelines.js';
import { Posts } from './view-posts.js';
import { Users } from './view-users.js';
import { SetPassword } from './view-set-password.js';
import { SignIn } from './view-sign-in.js';
import { SignInAgain } from './sign-in-again.js';
import { SignOutEverywhere } from './sign-out-everywhere.js';

/**
 * The signed-in user's capabilities (wp/v2 users/me, edit context), which decide the
 * navigation; undefined while they load. Should the read fail, the role's own are used.
 */
function useCapabilities(session: Session | null | undefined): Capabilities | undefined {
  const [capabilities, setCapabilities] = useState<Capabilities>();
  useEffect(() => {
    setCapabilities(undefined);
    if (!session) return;
    const ofRole = () => Object.fromEntries((ROLE_CAPABILITIES[session.role] ?? []).map((c) => [c, true]));
    call<{ capabilities?: Capabilities }>('GET', '/wp/v2/users/me', { query: { context: 'edit' } }).then(
      (me) => setCapabilities(me.capabilities ?? ofRole()),
      () => setCapabilities(ofRole()),
    );
  }, [session?.user_id, session?.role]);
  return capabilities;
}

/** The content's start for keyboard users: the page's title, or the main region while a page has none yet. */
function focusContent(): void {
  (document.getElementById('page-title') ?? document.getElementById('main'))?.focus();
}

function App() {
  // undefined: still asking the server; null: signed out.
  const [session, setSession] = useState<Session | null>();
  // The session ended under an open page: how to answer the calls waiting for a new one.
  const [lost, setLost] = useState<{ resolve: (signedIn: boolean) => void } | null>(null);
  const current = useRef<Session | null | undefined>(undefined);
  const capabilities = useCapabilities(session);
  const waiting = useWaitingCount(Boolean(session) && capabilities?.manage_options === true);
  const route = useRoute();
  const accept = (next: Session | null) => {
    setNonce(next?.nonce ?? '');
    current.current = next;
    setSession(next);
  };
  useEffect(() => {
    call<{ data: Session }>('GET', '/session').then(
      (res) => accept(res.data),
      () => accept(null),
    );
    // Signed in: ask over the page. Not signed in (the sign-in form): nothing to restore.
    return onSessionLost(() => (current.current ? new Promise<boolean>((resolve) => setLost({ resolve })) : Promise.resolve(false)));
  }, []);
  // Focus the new page's title after navigation and after signing in, so keyboard and
  // screen-reader users land on it (signing in removed the form that had the focus, and
  // left it on the page's body).
  const signedIn = Boolean(session) && capabilities !== undefined;
  useEffect(() => {
    if (signedIn) focusContent();
  }, [route.path.join('/'), signedIn]);

  if (session === undefined) return <Loading />;
  if (session === null) return <SignIn onSignedIn={accept} />;
  const again = lost ? (
    <SignInAgain
      login={session.login}
      onSignedIn={(next) => {
        accept(next);
        setLost(null);
        lost.resolve(true);
      }}
      onGiveUp={() => {
        setLost(null);
        lost.resolve(false);
        accept(null);
      }}
    />
  ) : null;
  if (capabilities === undefined) return <Loading />;
  const nav = allowedSections(capabilities);
  // A user's first page is the first they may open (an editor's is Posts).
  const home = nav[0]?.path ?? 'account';
  const [section = home, id] = route.path;
  const numeric = id !== undefined && /^\d+$/.test(id) ? Number(id) : undefined;
  const refused = sectionOf(section);
  const signOut = async () => {
    if (!mayLeave()) return;
    await call('DELETE', '/session').catch(() => undefined);
    accept(null);
  };
  let view: JSX.Element;
  if (!session.has_password && section !== 'account') view = <SetPassword session={session} onChanged={accept} />;
  else if (section === 'account')
    view = (
      <>
        <SetPassword session={session} onChanged={accept} />
        <SignOutEverywhere onSignedOut={() => accept(null)} />
      </>
    );
  else if (refused && !capabilities[refused.capability])
    view = (
      <Page title={refused.label}>
        <p role="alert">{refusal(refused, session.role)}</p>
        <p>{nav.length ? <a href={href(`/${home}`)}>Go to {nav[0]!.label}</a> : <a href={href('/account')}>Your password</a>}</p>
      </Page>
    );
  else if (section === 'pipelines') view = numeric ? <PipelineView id={numeric} /> : <Pipelines />;
  else if (section === 'flows') view = numeric ? <FlowView id={numeric} /> : <Flows />;
  else if (section === 'jobs')
    view = numeric ? (
      <JobView key={numeric} id={numeric} mayManage={capabilities.manage_options === true} />
    ) : (
      <Jobs route={route} mayManage={capabilities.manage_options === true} />
    );
  else if (section === 'review') view = <Review mayDecide={capabilities.manage_options === true} />;
  else if (section === 'logs') view = <Logs route={route} />;
  else if (section === 'posts') view = <Posts />;
  else if (section === 'users') view = <Users id={numeric} />;
  else if (section === 'credentials') view = <Credentials />;
  else if (section === 'settings') view = <Settings />;
  else if (section === 'plugins') view = <Plugins />;
  else if (section === 'providers') view = <Providers />;
  else if (section === 'chat') view = <Chat sessionId={id} />;
  else
    view = (
      <p role="alert">
        Nothing here. <a href={href(`/${home}`)}>Go to the start page</a>.
      </p>
    );
  return (
    <div class="layout">
      {/* A button, not a link to #main: the routes are in the hash, so following `#main` opened the route 'main' ("Nothing here"). */}
      <button type="button" class="skip" onClick={focusContent}>
        Skip to content
      </button>
      <header class="top">
        <a class="brand" href={href(`/${home}`)}>
          Flowhost
        </a>
        <nav aria-label="Sections">
          {nav.map((item) => (
            <a key={item.path} href={href(`/${item.path}`)} aria-current={section === item.path ? 'page' : undefined}>
              {item.label}
              {item.path === 'review' && waiting ? ' ' : null}
              {item.path === 'review' && waiting ? (
                <span class="badge count">
                  {waiting}
                  <span class="sr-only"> waiting</span>
                </span>
              ) : null}
            </a>
          ))}
        </nav>
        <span class="who">
          <a href={href('/account')} title="Your password and sessions">
            {session.login}
          </a>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        {view}
      </main>
      <footer class="muted">Flowhost {VERSION}</footer>
      {again}
    </div>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
