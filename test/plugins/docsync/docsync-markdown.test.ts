// docsync's reading of markdown, without a store: which destinations are rewritten (inline
// and reference-style, in lists, quotes, headings and tables) and which are left exactly as
// written (code spans, fenced and indented code, raw HTML, absolute addresses), and front
// matter read as YAML.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseMarkdown, rewriteLinks } from '../../../plugins/docsync/markdown.js';

const ctx = {
  path: 'docs/index.md',
  htmlUrl: 'https://git.example/acme/repo',
  branch: 'main',
  postLink: (path: string) => (path === 'docs/guide.md' ? 'https://site.example/?p=7' : null),
};
const P = 'https://site.example/?p=7';

const test = suite('docsync markdown');

test('inline, reference-style and nested destinations are rewritten where markdown-it sees a link', () => {
  const source = [
    '## See [guide](guide.md)',
    '',
    '- item [guide](<guide.md> "Title")',
    '  continued [ref][r]',
    '',
    '> quote [guide](./guide.md#part)',
    '',
    '| a | b |',
    '|---|---|',
    '| [guide](guide.md) | ![img](<pics/a b.png>) [guide](guide.md) |',
    '',
    '[![badge](badge.svg)](guide.md)',
    '',
    '[r]: guide.md',
    '[R2]: <files/data.csv> "Data"',
  ].join('\n');
  const { content, unresolved } = rewriteLinks(source, ctx);
  assert.is(unresolved, 0);
  assert.fixture(
    content,
    [
      `## See [guide](${P})`,
      '',
      `- item [guide](${P} "Title")`,
      '  continued [ref][r]',
      '',
      `> quote [guide](${P}#part)`,
      '',
      '| a | b |',
      '|---|---|',
      `| [guide](${P}) | ![img](https://git.example/acme/repo/raw/main/docs/pics/a%20b.png) [guide](${P}) |`,
      '',
      `[![badge](https://git.example/acme/repo/raw/main/docs/badge.svg)](${P})`,
      '',
      `[r]: ${P}`,
      '[R2]: https://git.example/acme/repo/blob/main/docs/files/data.csv "Data"',
    ].join('\n'),
  );
});

test('code spans, fenced and indented code, raw HTML and absolute addresses are left as written', () => {
  const source = [
    'Use `[x](guide.md)` like so.',
    '',
    '~~~',
    '[x](guide.md)',
    '[r]: guide.md',
    '~~~',
    '',
    '    [x](guide.md)',
    '',
    '<div>',
    '[x](guide.md)',
    '</div>',
    '',
    '[abs](https://example.org/guide.md) [anchor](#top) [up](../../outside.md) [missing](missing.md)',
  ].join('\n');
  const { content, unresolved } = rewriteLinks(source, ctx);
  assert.fixture(content, source);
  assert.is(unresolved, 1, 'missing.md has no post yet');
});

test('CRLF files are read like LF ones', () => {
  const { content } = rewriteLinks('A [g](guide.md)\r\n\r\n[r]: guide.md\r\n', ctx);
  assert.fixture(content, `A [g](${P})\n\n[r]: ${P}\n`);
});

test('front matter is YAML: folded and quoted titles, description as excerpt; a bad block is dropped', () => {
  const folded = parseMarkdown('---\ntitle: >\n  Long\n  title\ndescription: "Said: it"\n---\n# Heading\n\nBody.\n', 'a.md');
  assert.equal([folded.title, folded.excerpt, folded.content], ['Long title', 'Said: it', '# Heading\n\nBody.']);
  const literal = parseMarkdown("---\ntitle: |\n  Two\n  lines\nexcerpt: 'It''s'\n---\nText.\n", 'b.md');
  assert.equal([literal.title, literal.excerpt], ['Two lines', "It's"]);
  const broken = parseMarkdown('---\ntitle: [unclosed\n---\n# From heading\n\nFirst *words* here.\n', 'c.md');
  assert.equal([broken.title, broken.excerpt, broken.content], ['From heading', 'First words here.', 'First *words* here.']);
  const none = parseMarkdown('Setext title\n============\n\n![only an image](x.png)\n\nReal `text`.\n', 'my-page.md');
  assert.equal([none.title, none.excerpt], ['Setext title', 'Real text.']);
  assert.is(parseMarkdown('No heading.\n', 'dir/my-page_name.md').title, 'my page name');
});

test.run();
