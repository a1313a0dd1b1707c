// Naming steps on the command line (position, type, id) and reading --set values.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { collectEdits, orderedSteps, parseValue, plain, resolveStep, setPath } from '../../../host/cli/step-refs.js';

const test = suite('cli: step references and --set values');

const uuid = (n: number) => `0000000${n}-1111-2222-3333-444444444444`;
const steps = orderedSteps([
  { pipeline_step_id: `7_${uuid(3)}`, step_type: 'publish', execution_order: 2 },
  { pipeline_step_id: `7_${uuid(1)}`, step_type: 'fetch', execution_order: 0 },
  { pipeline_step_id: `7_${uuid(2)}`, step_type: 'ai', execution_order: 1 },
  { pipeline_step_id: `7_${uuid(4)}`, step_type: 'publish', execution_order: 3 },
]);

test('a step by 1-based position, by a type only one step has, by pipeline or flow step id', () => {
  assert.equal(
    steps.map((s) => [s.position, s.step_type]),
    [
      [1, 'fetch'],
      [2, 'ai'],
      [3, 'publish'],
      [4, 'publish'],
    ],
  );
  assert.is(resolveStep('1', steps, 7).step_type, 'fetch');
  assert.is(resolveStep(' 3 ', steps, 7).pipeline_step_id, `7_${uuid(3)}`);
  assert.is(resolveStep('ai', steps, 7).position, 2);
  assert.is(resolveStep(`7_${uuid(4)}`, steps, 7).position, 4);
  assert.is(resolveStep(`7_${uuid(4)}_12`, steps, 7).position, 4, 'a flow step id names its pipeline step');
});

test('unknown, out-of-range and ambiguous references say what the pipeline has', () => {
  assert.throws(() => resolveStep('5', steps, 7), /No step at position 5 in pipeline 7 \(its steps: 1 fetch, 2 ai, 3 publish, 4 publish\)/);
  assert.throws(() => resolveStep('0', steps, 7), /No step at position 0/);
  assert.throws(() => resolveStep('update', steps, 7), /No step 'update' in pipeline 7: name a step by position, type or id/);
  assert.throws(
    () => resolveStep('publish', steps, 7),
    /Step 'publish' is ambiguous: pipeline 7 has 2 publish steps \(positions 3, 4\); name one by its position/,
  );
  assert.throws(() => resolveStep('1', [], 9), /No step at position 1 in pipeline 9 \(its steps: none\)/);
});

test('--set values: JSON when they parse, text otherwise', () => {
  assert.is(parseValue('5'), 5);
  assert.is(parseValue('2.5'), 2.5);
  assert.is(parseValue('true'), true);
  assert.is(parseValue('false'), false);
  assert.is(parseValue('null'), null);
  assert.is(parseValue('"5"'), '5');
  assert.equal(parseValue('[1,"a"]'), [1, 'a']);
  assert.equal(parseValue('{"a":1}'), { a: 1 });
  assert.is(parseValue('news,tech'), 'news,tech');
  assert.is(parseValue('https://example.com/feed.xml?a=1&b=2'), 'https://example.com/feed.xml?a=1&b=2');
  assert.is(parseValue(''), '');
  assert.is(parseValue('0x10'), '0x10');
});

test('dotted keys nest; a value with = keeps everything after the first =', () => {
  const target: Record<string, unknown> = {};
  setPath(target, 'auth.user', 'ann');
  setPath(target, 'auth.scopes', ['a']);
  setPath(target, 'max_items', 3);
  assert.equal(plain(target), { auth: { user: 'ann', scopes: ['a'] }, max_items: 3 });
  const edits = collectEdits(
    {
      handler: ['fetch=rss', '3=cms'],
      set: ['fetch.feed_url=https://x.test/?a=b', '1.max_items=4', '3.meta.source=feed'],
      'user-message': 'ai=Say = hi',
    },
    steps,
    7,
  );
  const byPosition = new Map([...edits.values()].map((e) => [e.step.position, e]));
  assert.is(byPosition.get(1)!.handler, 'rss');
  assert.equal(plain(byPosition.get(1)!.settings), { feed_url: 'https://x.test/?a=b', max_items: 4 });
  assert.equal(plain(byPosition.get(3)!.settings), { meta: { source: 'feed' } });
  assert.is(byPosition.get(2)!.userMessage, 'Say = hi');
  assert.is(byPosition.get(2)!.hasSettings, false);
});

test('malformed options name the option and what it expects', () => {
  const edit = (argv: Record<string, unknown>) => () => collectEdits(argv, steps, 7);
  assert.throws(edit({ handler: 'fetch' }), /--handler 'fetch': expected <step>=<slug>/);
  assert.throws(edit({ handler: 'fetch= ' }), /--handler 'fetch= ': the handler slug is empty/);
  assert.throws(edit({ handler: ['1=rss', 'fetch=other'] }), /--handler names two handlers for step 1 \(rss, other\)/);
  assert.throws(edit({ set: 'fetch=3' }), /--set 'fetch=3': expected <step>\.<key>=<value>/);
  assert.throws(edit({ set: 'fetch.=3' }), /--set 'fetch\.=3': expected <step>\.<key>=<value>/);
  assert.throws(edit({ set: '1.a..b=3' }), /--set '1\.a\.\.b=3': the key 'a\.\.b' has an empty part/);
  assert.throws(edit({ set: '9.a=3' }), /No step at position 9/);
  assert.throws(edit({ 'user-message': 'fetch=hi' }), /--user-message: step 1 is a fetch step; only ai steps take a user message/);
  assert.throws(edit({ 'user-message': 'hi' }), /--user-message 'hi': expected <step>=<text>/);
});

test.run();
