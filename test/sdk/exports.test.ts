import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as sdk from '../../sdk/index.js';

const test = suite('sdk: public surface');

// The SDK is a contract with third-party authors: adding is a minor release, removing a
// major one. Change this list only on purpose.
test('exports exactly the pinned names', () => {
  assert.equal(Object.keys(sdk).sort(), [
    'ApiError',
    'BlobTooLargeError',
    'DEFAULT_UPLOAD_TYPES',
    'DuplicateKeyError',
    'FLOWHOST_VERSION',
    'FetchLimitError',
    'HookCatalogue',
    'PluginError',
    'RouteReply',
    'Type',
    'UnsupportedQueryError',
    'UrlRefusedError',
    'actingUserOf',
    'apiError',
    'badRequest',
    'canDeletePost',
    'canEditPost',
    'canReadPost',
    'conflict',
    'createExtensionPoint',
    'createServiceFactory',
    'createServiceRef',
    'defineAnalyticsTool',
    'defineAuthProvider',
    'defineChatTool',
    'defineCliNoun',
    'defineHandler',
    'defineInterval',
    'definePlugin',
    'definePluginErrors',
    'definePluginManifest',
    'definePostType',
    'definePreset',
    'defineProvider',
    'defineRoute',
    'defineStepType',
    'defineSurface',
    'defineTaxonomy',
    'defineVerifier',
    'errorBody',
    'fetchHonouringRetryAfter',
    'findReadablePosts',
    'fitText',
    'forbidden',
    'graphemeCount',
    'graphemes',
    'htmlToPlainText',
    'isApiError',
    'isExtensionPoint',
    'isRouteReply',
    'isSecretParameter',
    'isServiceRef',
    'isTapped',
    'json',
    'ksesPost',
    'ksesTitle',
    'maskDeep',
    'maskSecret',
    'named',
    'notFound',
    'notLoggedIn',
    'oauth1Authorization',
    'optionalService',
    'packetText',
    'page',
    'parameterValidators',
    'readUpload',
    'readsEverything',
    'renderContent',
    'reply',
    'safeEqual',
    'sanitizeFilename',
    'services',
    'smtpSettingsProperties',
    'smtpTransportOf',
    'stableJson',
    'stream',
    'stripTags',
    'successBody',
    'tooManyRequests',
  ]);
});

test('isTapped: a catalogue hook nobody tapped is not tapped, though tapable calls every one of them used', () => {
  const hooks = new sdk.HookCatalogue();
  assert.is(hooks.stepTimed.isUsed(), true, 'the catalogue intercepts every hook, so isUsed() cannot tell');
  assert.is(sdk.isTapped(hooks.stepTimed), false);
  hooks.stepTimed.tap('probe', () => undefined);
  assert.is(sdk.isTapped(hooks.stepTimed), true);
  assert.is(sdk.isTapped(hooks.requestFinished), false);
});

test('define helpers reject obvious mistakes early', () => {
  const fetch = async () => [];
  assert.throws(() => sdk.defineHandler({ slug: 'Bad Slug', type: 'fetch', label: 'x', description: 'x', fetch }), /not a valid slug/);
  assert.throws(
    () => sdk.defineHandler({ slug: 'ok', type: 'ai' as 'fetch', label: 'x', description: 'x', fetch }),
    /fetch, publish or update/,
  );
  assert.throws(
    () => sdk.defineHandler({ slug: 'ok', type: 'publish', label: 'x', description: 'x' } as never),
    /a publish handler needs a publish\(\) function/,
  );
  assert.throws(() => sdk.defineStepType({ type: 'translate', label: 'x', handlerType: null }), /needs run\(\)/);
  assert.throws(() => sdk.defineInterval({ value: 'often', label: 'Often', seconds: -1 }), /positive integer/);
  assert.throws(() => sdk.defineRoute({ method: 'GET', path: '/x', handle: () => ({}) } as never), /must declare its permission/);
  assert.is(sdk.defineInterval({ value: 'often', label: 'Often', seconds: 60 }).seconds, 60);
});

test('service references: typed, scoped, one per id; brands work across SDK copies', () => {
  const a = sdk.createServiceRef<number>({ id: 'acme.thing' });
  const b = sdk.createServiceRef<number>({ id: 'acme.thing' });
  assert.is(a.scope, 'root');
  // An id names one service, whichever copy of the SDK made the reference (a plugin with
  // its own flowhost in node_modules); two providers of one id are refused at boot.
  assert.is(a.token, b.token);
  assert.is.not(a.token, sdk.createServiceRef<number>({ id: 'acme.other' }).token);
  assert.ok(sdk.isServiceRef(a));
  assert.not.ok(sdk.isServiceRef({ id: 'acme.thing' }));
  assert.throws(() => sdk.createServiceRef({ id: 'Not Valid' }), /not a valid service id/);
  assert.is(sdk.services.flows.scope, 'root');
  assert.is(sdk.services.logger.scope, 'plugin');
  // A reply or error made by another copy of the SDK carries the same brand.
  const foreignReply = { [Symbol.for('flowhost.route-reply')]: true, status: 201, body: {}, headers: {} };
  assert.ok(sdk.isRouteReply(foreignReply));
  assert.ok(sdk.isApiError(sdk.badRequest('x', 'y')));
  assert.not.ok(sdk.isApiError(new Error('plain')));
});

test('definePluginManifest rejects a manifest it could not load', () => {
  const load = async () => sdk.definePlugin({ id: 'x', version: '1.0.0', flowhost: '^1.0.0', setup: () => undefined });
  assert.throws(() => sdk.definePluginManifest({ id: 'Bad Id', load }), /not a valid plugin id/);
  assert.throws(() => sdk.definePluginManifest({ id: 'x' } as never), /give load\(\)/);
  assert.throws(
    () => sdk.definePluginManifest({ id: 'x', load, cli: [{ noun: 'x', describe: 'x' } as never] }),
    /CLI noun 'x' needs load\(\)/,
  );
  assert.is(sdk.definePluginManifest({ id: 'x', load }).id, 'x');
});

test.run();
