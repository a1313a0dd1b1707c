import { createInterface } from 'node:readline/promises';
import { CliError } from './admin-client.js';

/** `--yes` on every command that deletes or disconnects something. */
export const yesOption = { yes: { type: 'boolean', alias: 'y', default: false, describe: 'Do not ask for confirmation' } } as const;

/**
 * Asks before a destructive command. With no terminal to ask on (a script, a pipe, CI)
 * it refuses rather than assume yes: a script must say --yes, so a stray delete in a loop
 * never runs unattended by accident.
 */
export async function confirm(argv: { yes?: boolean }, action: string): Promise<void> {
  if (argv.yes) return;
  if (!process.stdin.isTTY || !process.stderr.isTTY)
    throw new CliError(`${action}: not confirmed (no terminal to ask on); add --yes to go ahead`);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${action}? [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('Cancelled; nothing was changed');
  } finally {
    prompt.close();
  }
}
