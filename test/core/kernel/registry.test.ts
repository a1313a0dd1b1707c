import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PluginError } from '../../../core/errors.js';
import { Registry } from '../../../core/kernel/registry.js';

interface Tool {
  name: string;
  label?: string;
}

const test = suite('kernel: registry (a plain list of {owner, item})');

function refused(fn: () => void): PluginError {
  try {
    fn();
  } catch (error) {
    assert.instance(error, PluginError);
    return error as PluginError;
  }
  throw new assert.Assertion({
    message: 'expected a refusal',
    generated: false,
    operator: 'throws',
    expects: 'PluginError',
    actual: 'none',
  });
}

test('records the owner of each item and keeps the order items were added in', () => {
  const tools = new Registry<Tool>('tools', 'name');
  tools.add('alpha', { name: 'b' });
  tools.add('beta', { name: 'a' });
  tools.add('alpha', { name: 'c' });
  tools.seal();
  assert.equal(
    tools.list().map((t) => t.name),
    ['b', 'a', 'c'],
  );
  assert.equal(
    tools.entries().map((e) => [e.owner, e.item.name]),
    [
      ['alpha', 'b'],
      ['beta', 'a'],
      ['alpha', 'c'],
    ],
  );
  assert.is(tools.ownerOf('a'), 'beta');
  assert.is(tools.ownerOf('nope'), undefined);
  assert.equal(tools.get('c'), { name: 'c' });
  assert.is(tools.ownerOfItem(tools.list()[0]!), 'alpha');
  assert.equal(tools.keysOf('alpha'), ['b', 'c']);
});

test('a duplicate key is refused when it is added, naming both plugins', () => {
  const tools = new Registry<Tool>('chat.tools', 'name');
  tools.add('alpha', { name: 'search' });
  const error = refused(() => tools.add('beta', { name: 'search' }));
  assert.is(error.pluginId, 'beta');
  assert.is(error.message, "Plugin 'beta': duplicate chat.tools 'search': contributed by plugin 'alpha' and plugin 'beta'");
  tools.seal();
  assert.equal(
    tools.entries().map((e) => e.owner),
    ['alpha'],
    'the refused item is not kept',
  );
});

test('a malformed item, a missing key and the owner check are refused naming the plugin', () => {
  const tools = new Registry<Tool>('tools', 'name', (tool) => {
    if (tool.label === 'bad') throw new Error('its label is bad');
  });
  assert.match(refused(() => tools.add('p', null as unknown as Tool)).message, /Plugin 'p': added a 'tools' entry that is not an object/);
  assert.match(refused(() => tools.add('p', { name: '' })).message, /Plugin 'p': added a 'tools' entry without a 'name'/);
  assert.match(refused(() => tools.add('p', { name: 'x', label: 'bad' })).message, /Plugin 'p': tools 'x': its label is bad/);
});

test('reading before the seal and adding after it are refused', () => {
  const tools = new Registry<Tool>('tools', 'name');
  tools.add('alpha', { name: 'a' });
  assert.throws(() => tools.list(), /Registry 'tools' is read before the host booted/);
  assert.throws(() => tools.get('a'), /read before the host booted/);
  tools.seal();
  assert.match(refused(() => tools.add('late', { name: 'b' })).message, /Plugin 'late': adds to 'tools' after the host booted/);
});

test.run();
