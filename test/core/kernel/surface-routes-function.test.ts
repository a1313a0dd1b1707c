// A surface may give its routes as a function: called once when the host compiles its
// route table, after every plugin's setup, so it can read what plugins contributed (which
// setup cannot: here the content domain's post types, through services.contentTypes) and serve what other plugins contributed, even plugins loaded after it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestHost } from '../../../sdk/testing/index.js';
import { definePlugin, definePostType, defineSurface, services, successBody, type PluginDefinition } from '../../../sdk/index.js';

const test = suite('kernel: surface routes as a function');

test('routes built at boot from the contributed lists, including types a later plugin registers', async () => {
  let calls = 0;
  const lister = definePlugin({
    id: 'type-lister',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { routes: services.routes, contentTypes: services.contentTypes },
    setup({ routes, contentTypes }) {
      routes.add(
        defineSurface({
          id: 'type-lister',
          namespace: 'lister/v1',
          routes: () => {
            calls += 1;
            return contentTypes.postTypes().map((type) => ({
              method: 'GET' as const,
              path: `/${type.rest_base}/label`,
              permission: 'public' as const,
              schema: { responses: { 200: successBody({ label: { type: 'string' } }) } },
              handle: () => ({ label: type.label }),
            }));
          },
        }),
      );
    },
  }) as PluginDefinition;
  const later = definePlugin({
    id: 'later-types',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { postTypes: services.postTypes },
    setup({ postTypes }) {
      postTypes.add(definePostType({ name: 'recipe', label: 'Recipes', rest_base: 'recipes' }));
    },
  }) as PluginDefinition;

  const t = await startTestHost({ plugins: [lister, later] });
  try {
    assert.is(calls, 1, 'called once, at boot');
    const recipes = await t.request('GET', '/recipes/label', { namespace: 'lister/v1', as: 'anonymous' });
    assert.equal([recipes.status, recipes.body], [200, { success: true, label: 'Recipes' }]);
    const posts = await t.request('GET', '/posts/label', { namespace: 'lister/v1', as: 'anonymous' });
    assert.equal(posts.body, { success: true, label: 'Posts' });
    assert.ok(t.host.routes.some((r) => r.fullPath === '/api/lister/v1/recipes/label' && r.owner === 'type-lister'));
    // The wp/v2 surface is built the same way: the recipe type has its routes there too.
    assert.is((await t.request('GET', '/recipes', { namespace: 'wp/v2', as: 'anonymous' })).status, 200);
  } finally {
    await t.stop();
  }
});

test.run();
