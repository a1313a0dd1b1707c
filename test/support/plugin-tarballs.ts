// npm tarballs of the example third-party plugin (examples/hello-plugin, as the build compiled
// it into dist/examples/), as `npm pack` would make them, made with tar: offline, a few ms.
// Variants: the plugin as published (1.0.0); 1.1.0, whose new migration upper-cases the
// stored greetings; and packages a host must refuse (another Flowhost, a missing dependency).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const example = new URL('../../examples/hello-plugin/', import.meta.url).pathname;

export interface PluginTarballs {
  v1: string;
  v2: string;
  /** Package flowhost-plugin-future: needs Flowhost ^2 (peerDependencies and its definition). */
  future: string;
  /** Package flowhost-plugin-needy: plugin 'needy', dependsOn 'hello@^2'. */
  needy: string;
  /** Package flowhost-plugin-friend: plugin 'friend', dependsOn 'hello@^1', nothing of its own. */
  friend: string;
}

function pack(dir: string, name: string, version: string, index: string | null, extra: Record<string, unknown> = {}): string {
  const root = join(dir, `${name}-${version}`);
  const pkg = join(root, 'package');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  copyFileSync(join(example, 'index.js'), join(pkg, 'dist', index === null ? 'index.js' : 'base.js'));
  copyFileSync(join(example, 'greeting.js'), join(pkg, 'dist', 'greeting.js'));
  if (index !== null) writeFileSync(join(pkg, 'dist', 'index.js'), index);
  const manifest = {
    name,
    version,
    type: 'module',
    main: './dist/index.js',
    exports: { '.': { default: './dist/index.js' } },
    peerDependencies: { flowhost: '^1.0.0' },
    license: 'MIT',
    ...extra,
  };
  writeFileSync(join(pkg, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const file = join(dir, `${name}-${version}.tgz`);
  execFileSync('tar', ['czf', file, '-C', root, 'package']);
  return file;
}

const wrap = (fields: string) => `import base from './base.js';\nexport default { ...base, ${fields} };\n`;

export function helloTarballs(): PluginTarballs {
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-plugin-tarballs-'));
  const shout = `{
    id: '2027-01-shout',
    async up({ store }) {
      const greetings = store.collection('greetings');
      for (const g of await greetings.find({})) await greetings.updateOne({ _id: g._id }, { $set: { message: g.message.toUpperCase() } });
    },
  }`;
  return {
    v1: pack(dir, 'flowhost-plugin-hello', '1.0.0', null),
    v2: pack(dir, 'flowhost-plugin-hello', '1.1.0', wrap(`version: '1.1.0', migrations: [...base.migrations, ${shout}]`)),
    future: pack(dir, 'flowhost-plugin-future', '2.0.0', wrap(`id: 'future', version: '2.0.0', flowhost: '^2.0.0'`), {
      peerDependencies: { flowhost: '^2.0.0' },
    }),
    needy: pack(dir, 'flowhost-plugin-needy', '1.0.0', wrap(`id: 'needy', cli: [], dependsOn: ['hello@^2']`)),
    friend: pack(
      dir,
      'flowhost-plugin-friend',
      '1.0.0',
      `export default { id: 'friend', version: '1.0.0', flowhost: '^1.0.0', dependsOn: ['hello@^1'], setup() {} };\n`,
    ),
  };
}
