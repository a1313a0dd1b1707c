/**
 * E-mail templates: built-in defaults, each replaceable by a file `<name>.txt` in the
 * host's `templates_dir`. The first line is `Subject: ...`, the rest the plain-text body;
 * `{{field}}` is replaced by the value (plain text mail: nothing to escape).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const TEMPLATE_NAMES = ['welcome', 'cancellation'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

const DEFAULTS: Record<TemplateName, string> = {
  welcome: [
    'Subject: Your site is ready',
    'Hello,',
    '',
    'Your {{plan}} site is ready at {{site_url}}.',
    '',
    'Subscription: {{subscription_id}}',
    '',
    'Thank you for choosing us.',
  ].join('\n'),
  cancellation: [
    'Subject: Your subscription has been cancelled',
    'Hello,',
    '',
    'Your subscription {{subscription_id}} ({{plan}}) has been cancelled.',
    'Your site {{site_url}} and its data will be deleted on {{deletion_due_at}}.',
    'Subscribe again before then to keep it.',
  ].join('\n'),
};

export interface RenderedMail {
  subject: string;
  text: string;
}

export async function renderTemplate(name: TemplateName, values: Record<string, string>, dir: string): Promise<RenderedMail> {
  let source = DEFAULTS[name];
  if (dir) {
    try {
      source = await readFile(join(dir, `${name}.txt`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const filled = source.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_, key: string) => values[key] ?? '');
  const [first = '', ...rest] = filled.split(/\r?\n/);
  const subject = /^subject:/i.test(first) ? first.replace(/^subject:\s*/i, '').trim() : 'Notification';
  const text = (/^subject:/i.test(first) ? rest : [first, ...rest]).join('\n').replace(/^\n+/, '');
  return { subject, text };
}
