import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultPlugins, optionalPlugins } from '../../plugins/index.js';
import { defaultManifests, optionalManifests } from '../../plugins/manifests.js';
import type { PluginDefinition, PluginManifest } from '../../sdk/index.js';

const test = suite('plugins: built-in manifests');

// The CLI reads plugins/manifests.ts, hosts plugins/index.ts: the two must not drift.
async function sameAs(manifest: PluginManifest, plugin: PluginDefinition): Promise<void> {
  assert.is(manifest.id, plugin.id);
  assert.is(await manifest.load(), plugin, `${manifest.id}: load() gives the plugin itself`);
  assert.equal(
    (manifest.cli ?? []).map((n) => [n.noun, n.describe]),
    (plugin.cli ?? []).map((n) => [n.noun, n.describe]),
    `${manifest.id}: the same CLI nouns`,
  );
  for (const [i, noun] of (manifest.cli ?? []).entries())
    assert.is(await noun.load(), plugin.cli![i], `${manifest.id}: '${noun.noun}' loads the definition's noun`);
}

test('every default built-in has a manifest, in the same order, naming the same nouns', async () => {
  assert.equal(
    defaultManifests.map((m) => m.id),
    defaultPlugins.map((p) => p.id),
  );
  for (const [i, manifest] of defaultManifests.entries()) await sameAs(manifest, defaultPlugins[i]!);
});

test('so does every optional built-in', async () => {
  assert.equal(Object.keys(optionalManifests).sort(), Object.keys(optionalPlugins).sort());
  for (const [id, manifest] of Object.entries(optionalManifests)) await sameAs(manifest, optionalPlugins[id]!);
});

test.run();
