// Every flowhost config the README and docs/*.md show must start a host: each JSON example
// that looks like a config (a code block or an inline `{...}`), and each dotted settings
// path (`pluginSettings.chat.max_turns`) written out as the config it stands for, goes
// through the real loader. Pages once said `plugins.<id>`, which stops start-up with
// "plugins must be array".
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkDeclaration } from '../../host/build/build-declaration.js';
import { loadConfig } from '../../host/config/load-config.js';
import { configSchema } from '../../host/config/schema.js';
import { repoRoot } from '../support/host-process.js';

const test = suite('docs: config examples load');

const pages = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const configKeys = new Set(Object.keys((configSchema as { properties: Record<string, unknown> }).properties));

interface Example {
  where: string;
  config: Record<string, unknown>;
}

const asObject = (text: string): Record<string, unknown> | null => {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null; // an API answer with `…` or comments: not a config
  }
};

/** A build declaration (flowhost.build.json) names its built-ins; it is checked as one, not as a config. */
const looksLikeBuild = (value: Record<string, unknown>) => 'builtins' in value;

/** A config shares a key with the config schema; an API answer carries `success`. */
const looksLikeConfig = (value: Record<string, unknown>) =>
  Object.keys(value).some((k) => configKeys.has(k)) && !('success' in value) && !looksLikeBuild(value);

/** `pluginSettings.chat.max_turns` → { pluginSettings: { chat: { max_turns: 'x' } } }. */
function configOfPath(path: string): Record<string, unknown> {
  const [top, plugin, ...rest] = path.split('.').filter((part) => part !== '*');
  const settings: Record<string, unknown> = rest.length ? { [rest.join('.')]: 'x' } : {};
  return { [top!]: { [plugin!]: settings } };
}

function examples(): Example[] {
  const found: Example[] = [];
  for (const page of pages) {
    const text = readFileSync(join(repoRoot, page), 'utf8');
    const lineOf = (index: number) => text.slice(0, index).split('\n').length;
    for (const m of text.matchAll(/```json[c5]?\n([\s\S]*?)```/g)) {
      const value = asObject(m[1]!);
      if (value && looksLikeConfig(value)) found.push({ where: `${page}:${lineOf(m.index!)}`, config: value });
    }
    const prose = text.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ' '));
    for (const m of prose.matchAll(/`([^`\n]+)`/g)) {
      const span = m[1]!;
      const where = `${page}:${lineOf(m.index!)}`;
      if (span.startsWith('{')) {
        const value = asObject(span);
        if (value && looksLikeConfig(value)) found.push({ where, config: value });
      }
    }
    // Settings paths anywhere, code comments included (not `core-plugins.ts` or `ctx.plugins.x`).
    for (const m of text.matchAll(/(?<![\w/.-])(?:plugins|pluginSettings)\.([a-z][a-z0-9-]*)(?:\.[A-Za-z0-9_*-]+)*/g)) {
      if (/^(ts|js|mjs|json|md)$/.test(m[1]!)) continue;
      found.push({ where: `${page}:${lineOf(m.index!)}`, config: configOfPath(m[0]) });
    }
  }
  return found;
}

test('the pages show config examples and settings paths at all', () => {
  const all = examples();
  assert.ok(
    all.some((e) => e.where.startsWith('README.md')),
    'README has a config example',
  );
  assert.ok(all.length >= 10, `only ${all.length} found: the extraction is broken`);
});

test('each one loads through host/config/load-config.ts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-docs-config-'));
  const failures: string[] = [];
  for (const [i, example] of examples().entries()) {
    const file = join(dir, `config-${i}.json`);
    writeFileSync(file, JSON.stringify(example.config));
    try {
      loadConfig({ env: {}, file });
    } catch (error) {
      failures.push(`${example.where}: ${JSON.stringify(example.config)}: ${(error as Error).message}`);
    }
  }
  assert.equal(failures, []);
});

test('each build declaration example is a valid declaration', () => {
  const failures: string[] = [];
  let count = 0;
  for (const page of pages) {
    const text = readFileSync(join(repoRoot, page), 'utf8');
    for (const m of text.matchAll(/```json\n([\s\S]*?)```/g)) {
      const value = asObject(m[1]!);
      if (!value || !looksLikeBuild(value)) continue;
      count++;
      try {
        checkDeclaration(value, page);
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
  }
  assert.ok(count >= 1, 'docs/plugins.md shows a build declaration');
  assert.equal(failures, []);
});

test.run();
