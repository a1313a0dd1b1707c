// What wp/v2 answers as `rendered`: markdown or HTML by the documented rule, and nothing
// hostile surviving the sanitizer, whichever way it was written.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { contentFormat, plainText, renderContent, renderExcerpt, renderTitle, sanitize } from '../../../core/content/render.js';

const test = suite('content: rendering');

// Text that merely reads "javascript:" is harmless; in an attribute it is not.
const DANGEROUS =
  /<script|<style|<iframe|<object|<embed|<svg|<math|<form|<input|\son\w+\s*=|(href|src|action|srcset|cite)\s*=\s*["']?\s*(javascript|vbscript|data:(?!image\/(png|gif|jpe?g|webp|avif);))|style=|srcdoc/i;

const hostile = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<img src="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">',
  '<img src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<p style="background:url(javascript:alert(1))">x</p>',
  '<div onmouseover="alert(1)">x</div>',
  '<svg onload=alert(1)><circle/></svg>',
  '<math><mtext><script>alert(1)</script></mtext></math>',
  '<iframe src="https://evil.example" srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="evil.swf"></object><embed src="evil.swf">',
  '<style>body{display:none}</style>',
  '<form action="https://evil.example"><input name=x></form>',
  '<scr<script>ipt>alert(1)</script>',
  '<<script>script>alert(1)<</script>/script>',
  '<!--<script>alert(1)//--><script>alert(2)</script>',
  '<a href="#" onclick="alert(1)">x</a>',
  '<details open ontoggle=alert(1)>x</details>',
  '[click](javascript:alert(1))',
  '![img](javascript:alert(1))',
  '<javascript:alert(1)>',
  '# Title <script>alert(1)</script>\n\nText',
  '```\n<script>alert(1)</script>\n```',
];

test('no hostile input survives, as content, excerpt or title', () => {
  for (const input of hostile) {
    for (const format of [undefined, 'markdown', 'html']) {
      const content = renderContent(input, format);
      assert.not.match(content, DANGEROUS, `${format ?? 'auto'}: ${input} → ${content}`);
      assert.not.match(renderExcerpt(input, content, format), DANGEROUS, input);
      assert.not.match(renderExcerpt('', content, format), DANGEROUS, input);
    }
    assert.not.match(renderTitle(input), DANGEROUS, input);
  }
});

test('script and style content is dropped, not shown as text', () => {
  assert.is(sanitize('<p>a</p><script>alert(1)</script><style>p{}</style>'), '<p>a</p>');
  assert.is(renderTitle('A <script>x()</script>title'), 'A title');
});

test('common formatting, links, images, tables and code stay', () => {
  const html =
    '<h2>H</h2><p><strong>b</strong> <em>i</em> <a href="https://example.com/x?a=1" title="t">l</a> <a href="/relative">r</a> <a href="mailto:a@example.com">m</a></p>' +
    '<img src="https://example.com/a.png" alt="a" width="10"><img src="data:image/png;base64,iVBORw0KGgo=" alt="d">' +
    '<table><thead><tr><th colspan="2">h</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>' +
    '<pre><code class="language-ts">let a = 1;</code></pre><blockquote>q</blockquote><ul><li>x</li></ul>';
  assert.is(sanitize(html), html.replace('alt="a" width="10">', 'alt="a" width="10" />').replace('alt="d">', 'alt="d" />'));
  assert.is(
    sanitize('<a href="https://x.example" target="_blank">x</a>'),
    '<a href="https://x.example" target="_blank" rel="noopener noreferrer">x</a>',
  );
  assert.is(sanitize('<code class="evil-class">x</code>'), '<code>x</code>');
});

test('the markdown rule: declared format wins, else HTML block tags mean HTML', () => {
  assert.is(contentFormat('# Title', undefined), 'markdown');
  assert.is(contentFormat('plain words', undefined), 'markdown');
  assert.is(contentFormat('<p>para</p>', undefined), 'html');
  assert.is(contentFormat('text with <em>inline</em> tags', undefined), 'markdown');
  assert.is(contentFormat('<p>x</p>', 'markdown'), 'markdown');
  assert.is(contentFormat('# x', 'html'), 'html');
  assert.is(renderContent('Para one.\n\nPara *two*.'), '<p>Para one.</p>\n<p>Para <em>two</em>.</p>\n');
  assert.is(renderContent('<p>*as is*</p>'), '<p>*as is*</p>');
  assert.is(renderContent('   '), '');
});

test('derived excerpts: 55 words and [&hellip;], text escaped', () => {
  const long = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
  assert.is(renderExcerpt('', renderContent(long)), `<p>${Array.from({ length: 55 }, (_, i) => `w${i}`).join(' ')} [&hellip;]</p>\n`);
  assert.is(renderExcerpt('', renderContent('a &lt;b&gt; c')), '<p>a &lt;b&gt; c</p>\n');
  assert.is(renderExcerpt('Own *excerpt*', '<p>ignored</p>'), '<p>Own <em>excerpt</em></p>\n');
  assert.is(plainText('<p>a</p>\n<p>b&nbsp;c</p>'), 'a b c');
});

test.run();
