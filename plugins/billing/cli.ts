/** `flowhost billing ...`: subscriptions for support, and replay of a stored event. */
import { defineCliNoun } from '../../sdk/index.js';

type Row = Record<string, unknown>;
const BASE = '/provisioner/v1';
const line = (s: Row) =>
  `${String(s.id)}  ${String(s.status).padEnd(14)}  ${String(s.plan ?? '-').padEnd(12)}  ${String(s.email ?? '-')}  ${String(s.site_url ?? '')}`;

export const billingCli = defineCliNoun({
  noun: 'billing',
  describe: 'Subscriptions, payment and provisioning events (the billing plugin)',
  commands: [
    {
      command: 'subscriptions <action> [id]',
      describe: 'list: subscriptions (--status, --page, --per-page); show <id>: one with its event history',
      options: {
        status: { type: 'string', describe: 'Only this status (pending, active, payment_failed, canceled, deleted)' },
        page: { type: 'number', describe: 'Page (default 1)' },
        'per-page': { type: 'number', describe: 'Per page (default 20, at most 100)' },
      },
      async run(args, ctx) {
        if (args.action === 'list') {
          const query = {
            status: args.status as string | undefined,
            page: args.page as number | undefined,
            per_page: args['per-page'] as number | undefined,
          };
          const res = await ctx.call<{ data: Row[]; total: number; page: number; total_pages: number }>('GET', `${BASE}/subscriptions`, {
            query,
          });
          const text = res.data.length
            ? `${res.data.map(line).join('\n')}\n(page ${res.page} of ${res.total_pages}, ${res.total} in all)`
            : 'No subscriptions.';
          ctx.print(res, text);
          return;
        }
        if (args.action === 'show') {
          if (!args.id) throw new Error('Usage: flowhost billing subscriptions show <id>');
          const res = await ctx.call<{ data: Row & { events: Row[] } }>(
            'GET',
            `${BASE}/subscriptions/${encodeURIComponent(String(args.id))}`,
          );
          const events = res.data.events.map(
            (e) =>
              `  ${String(e.received_at)}  ${String(e.id)}  ${String(e.type)}  ${String(e.status)}  ${String(e.outcome ?? e.error ?? '')}`,
          );
          ctx.print(
            res.data,
            `${line(res.data)}\nrenews ${String(res.data.renews_at ?? '-')}, deletion due ${String(res.data.deletion_due_at ?? '-')}\nEvents:\n${events.join('\n') || '  (none)'}`,
          );
          return;
        }
        throw new Error(`Unknown action "${String(args.action)}": use list or show <id>`);
      },
    },
    {
      command: 'replay <event_id>',
      describe: 'Re-process a stored event as a new attempt (idempotent: only what is missing is done; the original keeps its outcome)',
      async run(args, ctx) {
        const res = await ctx.call<{ data: Row }>('POST', `${BASE}/events/${encodeURIComponent(String(args.event_id))}/replay`);
        ctx.print(
          res.data,
          `Replayed ${String(res.data.replay_of)} (${String(res.data.type)}), attempt ${String(res.data.attempt)}: ${String(res.data.outcome)}`,
        );
      },
    },
  ],
});
