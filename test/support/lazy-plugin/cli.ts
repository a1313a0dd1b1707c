import { defineCliNoun } from '../../../sdk/index.js';

// The point of the fixture: importing this module for any command but its own is a bug.
if (!process.argv.includes('lazy-fixture'))
  throw new Error('lazy-fixture: the command module was imported for a command that does not name it');

export const lazyNoun = defineCliNoun({
  noun: 'lazy-fixture',
  describe: 'A noun whose commands load only when named',
  commands: [{ command: 'ping', describe: 'Answer pong', run: (_args, ctx) => ctx.print({ pong: true }, 'pong') }],
});
