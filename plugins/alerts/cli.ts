/** `flowhost alerts show|set|test`: the alert settings, site-wide or one flow's (--flow). */
import { defineCliNoun } from '../../sdk/index.js';

type Row = Record<string, unknown>;
const BASE = '/automation/v1';
const pathOf = (flow: unknown) => (flow === undefined ? `${BASE}/alerts` : `${BASE}/flows/${Number(flow)}/alerts`);
const flowOption = { flow: { type: 'number', describe: "A flow's settings instead of the site's" } } as const;

/** `key=value`: the value read as JSON when it is JSON (numbers, true, null, ["a@b"]), else as text. */
export function parsePairs(pairs: string[]): Row {
  const out: Row = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`"${pair}" is not key=value (e.g. window_minutes=0, email_to='["ops@example.com"]', webhook_url=null)`);
    const raw = pair.slice(at + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // plain text (a URL, a secret)
    }
    out[pair.slice(0, at)] = value;
  }
  return out;
}

const lines = (settings: Row) =>
  Object.entries(settings)
    .map(([k, v]) => `  ${k.padEnd(20)} ${JSON.stringify(v)}`)
    .join('\n');

function describe(data: Row, flow: unknown): string {
  if (flow === undefined) return `Site-wide alert settings:\n${lines(data)}`;
  return `Flow ${Number(flow)} overrides:\n${lines(data.flow as Row) || '  (none: the site settings apply)'}\nIn effect:\n${lines(data.effective as Row)}`;
}

export const alertsCli = defineCliNoun({
  noun: 'alerts',
  describe: 'Alerts when a flow fails or recovers (the alerts plugin)',
  commands: [
    {
      command: 'show',
      describe: 'The site-wide alert settings, or a flow’s (--flow) with what is in effect; secrets masked',
      options: flowOption,
      async run(args, ctx) {
        const res = await ctx.call<{ data: Row }>('GET', pathOf(args.flow));
        ctx.print(res.data, describe(res.data, args.flow));
      },
    },
    {
      command: 'set <pairs..>',
      describe: 'Changes settings given as key=value (null resets one; on a flow, back to the site’s)',
      options: flowOption,
      async run(args, ctx) {
        const body = parsePairs((args.pairs as string[]).map(String));
        const res = await ctx.call<{ data: Row }>('PUT', pathOf(args.flow), { body });
        ctx.print(res.data, describe(res.data, args.flow));
      },
    },
    {
      command: 'test',
      describe: 'Sends a test alert on each configured channel and says how each went',
      options: flowOption,
      async run(args, ctx) {
        const body = args.flow === undefined ? {} : { flow_id: Number(args.flow) };
        const res = await ctx.call<{ data: { channels: Array<{ channel: string; ok: boolean; error?: string }> } }>(
          'POST',
          `${BASE}/alerts/test`,
          {
            body,
          },
        );
        const text = res.data.channels.length
          ? res.data.channels.map((c) => `${c.channel.padEnd(8)} ${c.ok ? 'sent' : `not sent: ${c.error ?? ''}`}`).join('\n')
          : 'No channel is configured.';
        ctx.print(res.data, text);
      },
    },
  ],
});
