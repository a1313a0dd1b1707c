// A preset's template is checked when the host loads it: a mistake stops start-up naming
// the plugin and the preset, instead of booting and answering 400 invalid_template to the
// first user who picks the preset.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin, definePreset, services } from '../../../sdk/index.js';
import { createTestHost } from '../../../sdk/testing/index.js';

const test = suite('webhook presets: checked at load');

const template = {
  mode: 'hmac',
  algo: 'sha256',
  signed_template: '{body}',
  signature_source: { header: 'X-Acme-Signature', extract: { kind: 'raw' }, encoding: 'hexx' },
} as const;

test('a preset with an unknown encoding refuses start-up, naming the plugin and the preset', async () => {
  // Added without definePreset, as a JavaScript plugin would: only the host's check sees it.
  const acme = definePlugin({
    id: 'acme',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { presets: services.presets },
    setup({ presets }) {
      presets.add({ slug: 'foo', label: 'Foo', template: { ...template } });
    },
  });
  try {
    const t = await createTestHost({ plugins: [acme] });
    await t.stop();
    assert.unreachable('the host started');
  } catch (error) {
    assert.match(
      (error as Error).message,
      "Plugin 'acme': webhooks.presets 'foo': signature_source.encoding must be one of: hex, base64, base64url",
    );
  }
});

test('definePreset types the template and checks it where it is written', () => {
  try {
    // @ts-expect-error 'hexx' is not a SignatureEncoding
    definePreset({ slug: 'foo', label: 'Foo', template });
    assert.unreachable('definePreset accepted it');
  } catch (error) {
    assert.is((error as Error).message, "definePreset 'foo': signature_source.encoding must be one of: hex, base64, base64url");
  }
});

test('a valid preset loads and is offered', async () => {
  const ok = definePlugin({
    id: 'acme',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { presets: services.presets },
    setup({ presets }) {
      presets.add(
        definePreset({
          slug: 'acme',
          label: 'Acme',
          template: { ...template, signature_source: { ...template.signature_source, encoding: 'hex' } },
        }),
      );
    },
  });
  const t = await createTestHost({ plugins: [ok] });
  try {
    const res = await t.request<{ data: Array<{ slug: string }> }>('GET', '/webhook-presets');
    assert.is(res.status, 200);
    assert.ok(res.body.data.some((p) => p.slug === 'acme'));
  } finally {
    await t.stop();
  }
});

test.run();
