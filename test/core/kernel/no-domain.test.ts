import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';

const test = suite('kernel: knows no domain');
const root = resolve(new URL('../../../..', import.meta.url).pathname);
const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');

/**
 * Folders of core/ that are domains, and of sdk/ that hold their public half (types, small
 * helpers; core/<domain>/ re-exports them); the kernel may reach the ports (store,
 * security), errors.ts and the contracts (sdk/contract).
 */
const domains = ['content', 'credentials', 'engine', 'flows', 'jobs', 'logs', 'media', 'pipelines', 'settings', 'users', 'webhooks'];
/** Files of core/ that assemble the domains. */
const assembly = ['core/core-plugins.ts', 'core/workflows-plugin.ts', 'core/internal-services.ts'];

function isDomain(file: string): boolean {
  const rel = relative(root, file);
  return assembly.includes(rel) || domains.some((d) => rel.startsWith(`core/${d}/`) || rel.startsWith(`sdk/${d}/`));
}

/** Relative imports of a source, read as the compiler reads them (import/export statements, dynamic imports). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(file, '..', spec.replace(/\.js$/, '.ts')));
}

// The kernel's public half (sdk/kernel) and what stays in core (the loader, the container...).
const kernelFiles = ['core/kernel', 'sdk/kernel'].flatMap((dir) =>
  readdirSync(join(root, dir))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(root, dir, name)),
);

test('no file under core/kernel imports a domain', () => {
  assert.ok(kernelFiles.length > 10);
  const offenders = kernelFiles.flatMap((file) =>
    importsOf(file)
      .filter(isDomain)
      .map((target) => `${relative(root, file)} -> ${relative(root, target)}`),
  );
  assert.equal(offenders, []);
});

test('nor does anything the kernel imports, however far down', () => {
  const seen = new Map<string, string>();
  const queue = kernelFiles.map((file) => [file, relative(root, file)] as const);
  const offenders: string[] = [];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [file, path] = next;
    if (seen.has(file)) continue;
    seen.set(file, path);
    for (const target of importsOf(file)) {
      const chain = `${path} -> ${relative(root, target)}`;
      if (isDomain(target)) offenders.push(chain);
      else queue.push([target, chain]);
    }
  }
  assert.equal(offenders, []);
});

test('the check sees a domain import when there is one', () => {
  // The rule's own test: a kernel file that named a domain would be caught.
  const sample = ts.preProcessFile(
    "import type { FlowsService } from '../flows/service.js';\nexport { x } from '../jobs/model.js';",
    true,
    true,
  );
  const targets = sample.importedFiles.map((f) => resolve(root, 'core/kernel', f.fileName.replace(/\.js$/, '.ts')));
  assert.equal(targets.filter(isDomain).length, 2);
});

test.run();
