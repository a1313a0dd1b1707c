import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { htmlToPlainText } from '../../../core/kernel/post-text.js';

const test = suite('kernel: htmlToPlainText');

test('markup and entities become the text a reader sees, on one line', () => {
  assert.is(htmlToPlainText('<h2>Tom &amp; Jerry&#8217;s</h2>\n<p>5 &lt; 6 <script>alert(1)</script></p>'), 'Tom & Jerry’s 5 < 6');
  assert.is(htmlToPlainText('<a href="https://x.test">a link</a> and <img src="x.png" alt="pic"> text'), 'a link and text');
});

test('plain text (no tag, no entity) comes back as it is, with its whitespace folded', () => {
  for (const [plain, expected] of [
    ['One', 'One'],
    ['  Update   post\n\tnow  ', 'Update post now'],
    ['a > b, "quoted" and *stars*', 'a > b, "quoted" and *stars*'],
    ['', ''],
  ] as const) {
    assert.is(htmlToPlainText(plain), expected, JSON.stringify(plain));
  }
});

test.run();
