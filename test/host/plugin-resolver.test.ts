import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolvePluginEntries } from '../../host/plugin-resolver.js';

const test = suite('FLOWHOST_PLUGINS: a package name');
const home = process.cwd();
let dir = '';

test.before(() => {
  // A plugin author's folder: the plugin package installed beside it, not beside flowhost.
  dir = mkdtempSync(join(tmpdir(), 'flowhost-by-name-'));
  const pkg = join(dir, 'node_modules', 'flowhost-plugin-acme');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'flowhost-plugin-acme', type: 'module', main: 'index.js' }));
  writeFileSync(join(pkg, 'index.js'), "export default { id: 'acme', version: '1.0.0', flowhost: '^1.0.0', setup() {} };\n");
  const broken = join(dir, 'node_modules', 'flowhost-plugin-broken');
  mkdirSync(broken, { recursive: true });
  writeFileSync(join(broken, 'package.json'), JSON.stringify({ name: 'flowhost-plugin-broken', type: 'module', main: 'index.js' }));
  writeFileSync(join(broken, 'index.js'), "export default { id: 'broken', \n");
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'author', private: true }));
});
test.after(() => {
  process.chdir(home);
  rmSync(dir, { recursive: true, force: true });
});

test('a package installed in the working directory loads by name', async () => {
  process.chdir(dir);
  const [entry] = await resolvePluginEntries(['flowhost-plugin-acme'], {});
  assert.is((entry as { id: string }).id, 'acme');
});

/** The message resolving `name` from the plugin folder fails with. */
async function refusal(name: string): Promise<string> {
  process.chdir(dir);
  try {
    await resolvePluginEntries([name], {});
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`'${name}' loaded`);
}

test('a name found nowhere says where it looked and how to give a path', async () => {
  const message = await refusal('flowhost-plugin-nowhere');
  assert.match(message, /Plugin 'flowhost-plugin-nowhere' \(from FLOWHOST_PLUGINS\) could not be loaded/);
  assert.match(message, /then from the working directory/);
  assert.match(message, /give its path instead, e\.g\. FLOWHOST_PLUGINS=\.\/dist\/index\.js/);
});

test('a package that is found but fails to load is named as it failed, without the where-we-looked hint', async () => {
  const message = await refusal('flowhost-plugin-broken');
  assert.match(message, /Plugin 'flowhost-plugin-broken' \(from FLOWHOST_PLUGINS\) could not be loaded: /);
  assert.not.match(message, /then from the working directory/);
});

test.run();
