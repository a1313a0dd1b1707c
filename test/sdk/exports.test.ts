import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as sdk from '../../sdk/index.js';

const test = suite('sdk: public surface');

// The SDK is a contract with third-party authors: adding is a minor release, removing a
// major one. Change this list only on purpose.
test('exports exactly the pinned names', () => {
  assert.equal(Object.keys(sdk).sort(), [
    'ApiError',
    'DuplicateKeyError',
    'FLOWHOST_VERSION',
    'FetchLimitError',
    'HookCatalogue',
    'PluginError',
    'RouteReply',
    'Tokens',
    'UnsupportedQueryError',
    'UrlRefusedError',
    'badRequest',
    'conflict',
    'createToken',
    'defineAnalyticsTool',
    'defineAuthProvider',
    'defineChatTool',
    'defineHandler',
    'defineInterval',
    'definePlugin',
    'definePreset',
    'defineProvider',
    'defineRoute',
    'defineStepType',
    'defineSurface',
    'defineVerifier',
    'forbidden',
    'maskDeep',
    'maskSecret',
    'notFound',
    'notLoggedIn',
    'reply',
    'safeEqual',
    'tooManyRequests',
  ]);
});

test('define helpers reject obvious mistakes early', () => {
  assert.throws(() => sdk.defineHandler({ slug: 'Bad Slug', type: 'fetch', label: 'x', description: 'x' }), /not a valid slug/);
  assert.throws(() => sdk.defineHandler({ slug: 'ok', type: 'ai' as 'fetch', label: 'x', description: 'x' }), /fetch, publish or update/);
  assert.throws(() => sdk.defineInterval({ value: 'often', label: 'Often', seconds: -1 }), /positive integer/);
  assert.throws(() => sdk.defineRoute({ method: 'GET', path: '/x', handle: () => ({}) } as never), /must declare its permission/);
  assert.is(sdk.defineInterval({ value: 'often', label: 'Often', seconds: 60 }).seconds, 60);
});

test('typed tokens are distinct per name and stable', () => {
  const a = sdk.createToken<number>('thing');
  assert.is(a, sdk.createToken<number>('thing'));
  assert.is.not(a, sdk.createToken<number>('other'));
});

test.run();
