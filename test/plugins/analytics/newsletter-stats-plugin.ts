// A third party's analytics tool, written only with the public SDK (`flowhost` and
// `flowhost/analytics`, here their sources): newsletter opens kept in its own store, reported
// at POST /analytics/newsletter-stats to anyone who may edit posts.
import { definePlugin, services, Type } from '../../../sdk/index.js';
import { analyticsTools, defineAnalyticsTool } from '../../../sdk/analytics/index.js';

export interface OpenDoc extends Record<string, unknown> {
  issue: string;
  opens: number;
}

export const newsletterStats = definePlugin({
  id: 'newsletter-stats',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { analyticsTools, store: services.store },
  setup({ analyticsTools, store }) {
    const opens = store.collection<OpenDoc>('opens');
    analyticsTools.add(
      defineAnalyticsTool({
        name: 'newsletter-stats',
        description: 'Opens per newsletter issue.',
        permission: { capability: 'edit_posts' },
        parameters: Type.Object(
          {
            action: Type.Enum(['top_issues', 'total']),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
            issue_filter: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          },
          { additionalProperties: false },
        ),
        async run(args) {
          const rows = (await opens.find({}, { sort: { opens: -1 } }))
            .filter((row) => !args.issue_filter || row.issue.includes(args.issue_filter))
            .map(({ issue, opens }) => ({ issue, opens }));
          if (args.action === 'total') {
            const total = rows.reduce((sum, row) => sum + row.opens, 0);
            return { success: true, action: args.action, results_count: 1, results: [{ opens: total }] };
          }
          const results = rows.slice(0, args.limit ?? 10);
          return { success: true, action: args.action, results_count: results.length, results, issues: rows.length };
        },
      }),
    );
  },
});
