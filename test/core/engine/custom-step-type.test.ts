// A plugin adds a kind of step the engine has never heard of, and a flow runs it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost } from '../../../sdk/testing/index.js';
import { createServiceRef, defineHandler, definePlugin, defineStepType, services } from '../../../sdk/index.js';
import { PluginError } from '../../../core/errors.js';

const seenUsers: Array<{ login: string; admin: boolean } | null> = [];

const shout = definePlugin({
  id: 'shout',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { stepTypes: services.stepTypes, handlers: services.handlers },
  setup({ stepTypes, handlers }) {
    handlers.add(
      defineHandler({
        slug: 'words',
        type: 'fetch',
        label: 'Words',
        description: 'Two words.',
        fetch: async () => [{ type: 'word', data: { title: 'hello', content: 'hello' }, metadata: { item_id: 'hello' } }],
      }),
    );
    stepTypes.add(
      defineStepType({
        type: 'shout',
        label: 'Shout',
        handlerType: null,
        run: async (ctx, packets) =>
          (seenUsers.push(ctx.user ? { login: ctx.user.login, admin: ctx.user.can('manage_options') } : null), packets).map((p) => ({
            ...p,
            data: { ...p.data, content: `${String(p.data.content).toUpperCase()}${String(ctx.config.suffix ?? '')}` },
          })),
      }),
    );
  },
});

const test = suite('engine: step types from plugins');

test('a flow runs a step type a plugin added; its config reaches run()', async () => {
  const t = await createTestHost({ plugins: [shout] });
  try {
    const job = await t.executeAndWait({
      workflow: {
        steps: [
          { type: 'fetch', handler_slug: 'words' },
          { type: 'shout', handler_config: { suffix: '!' } },
        ],
      },
    });
    assert.is(job.status, 'completed', JSON.stringify(job));
    const steps = job.steps as Array<{ step_type: string; status: string; items_out: number }>;
    assert.equal(
      steps.map((s) => [s.step_type, s.status, s.items_out]),
      [
        ['fetch', 'completed', 1],
        ['shout', 'completed', 1],
      ],
    );
    // The run acts for the user who asked, with their capabilities then.
    assert.equal(seenUsers, [{ login: t.admin.login, admin: true }]);
    const unknown = await t.request<{ code: string; message: string }>('POST', '/execute', {
      body: { workflow: { steps: [{ type: 'whisper' }] } },
    });
    assert.is(unknown.status, 400, JSON.stringify(unknown.body));
  } finally {
    await t.stop();
  }
});

test('a plugin whose dependency nobody provides stops start-up, naming both', async () => {
  const weather = createServiceRef<{ today(): string }>({ id: 'acme.weather' });
  const needy = definePlugin({ id: 'needy', version: '1.0.0', flowhost: '^1.0.0', deps: { weather }, setup: () => undefined });
  try {
    await createTestHost({ plugins: [needy] });
    assert.unreachable('started');
  } catch (error) {
    assert.instance(error, PluginError);
    assert.match(
      (error as Error).message,
      /Plugin 'needy': needs service 'acme\.weather' \(as 'weather'\), which no loaded plugin provides/,
    );
  }
});

test('a malformed handler schema stops start-up naming plugin and handler', async () => {
  const broken = definePlugin({
    id: 'broken',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { handlers: services.handlers },
    setup({ handlers }) {
      handlers.add(
        defineHandler({
          slug: 'bad',
          type: 'fetch',
          label: 'Bad',
          description: 'x',
          settings: { type: 'object', properties: { n: { type: 'integer', minimum: 'one' } } } as never,
          fetch: async () => [],
        }),
      );
    },
  });
  try {
    await createTestHost({ plugins: [broken] });
    assert.unreachable('started');
  } catch (error) {
    assert.match((error as Error).message, /Plugin 'broken': flows.handlers 'bad': the schema does not compile/);
  }
});

test.run();
