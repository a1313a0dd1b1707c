import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const root = resolve(new URL('../../..', import.meta.url).pathname);
const test = suite('plugins: only the SDK');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    // Installed packages and compiled output are not the plugin's sources.
    if (name === 'node_modules' || name === 'dist') return [];
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
  });
}

// Built-ins use exactly what third-party authors get: a relative import must stay inside
// the plugin's own folder or land in sdk/; bare imports are packages (never flowhost/host).
test('every built-in imports only sdk/, its own files and packages', () => {
  const offenders: string[] = [];
  const files = [...sources(join(root, 'plugins')), ...sources(join(root, 'examples/hello-plugin'))];
  assert.ok(files.length > 0);
  for (const file of files) {
    const pluginDir = file.startsWith(join(root, 'plugins'))
      ? join(root, 'plugins', relative(join(root, 'plugins'), file).split('/')[0]!)
      : join(root, 'examples/hello-plugin');
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      const spec = match[1]!;
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        const inside = target.startsWith(`${pluginDir}/`) || target.startsWith(`${join(root, 'sdk')}/`);
        // The three registries (the plugins, their manifests for the CLI, and their error
        // catalogues for the generated error tables) list every built-in.
        const registry =
          [join(root, 'plugins/index.ts'), join(root, 'plugins/manifests.ts'), join(root, 'plugins/error-catalogues.ts')].includes(file) &&
          target.startsWith(`${join(root, 'plugins')}/`);
        if (!inside && !registry) offenders.push(`${relative(root, file)} -> ${spec}`);
      } else if (spec.startsWith('flowhost/host')) offenders.push(`${relative(root, file)} -> ${spec}`);
    }
  }
  assert.equal(offenders, []);
});

test.run();
