import type { SurfaceDefinition } from '../../core/kernel/routes.js';
import type { PluginDefinition } from '../../core/kernel/plugin.js';
import type { DocumentStore } from '../../core/store/port.js';
import { withResponses } from '../../core/kernel/response-schemas.js';
import { bool, int, isoDate, list, named, nullable, obj, str, successBody } from '../../core/kernel/response-schemas.js';
import { defineRoute } from '../../sdk/define.js';
import { migrationRecords, statusOf, type MigrationStatus } from '../migrations/migration-record.js';

const step = obj({ id: str, description: nullable(str) });
const status = named(
  'PluginMigrations',
  obj({
    plugin: str,
    applied: list(step),
    pending: list(step),
    last: nullable(str),
    updated_at: nullable(isoDate),
    failed: nullable(obj({ step: str, message: str, at: isoDate })),
    locked_by: nullable(str),
  }),
);

/** Applied and pending steps of every plugin of this build that has migrations. */
export async function migrationStatuses(plugins: ReadonlyArray<PluginDefinition>, store: DocumentStore): Promise<MigrationStatus[]> {
  const records = migrationRecords(store);
  const withSteps = plugins.filter((p) => p.migrations?.length);
  const found = withSteps.length ? await records.find({ _id: { $in: withSteps.map((p) => p.id) } }) : [];
  const byId = new Map(found.map((r) => [r._id, r]));
  return withSteps.map((p) => statusOf(p.id, p.migrations ?? [], byId.get(p.id) ?? null));
}

/** `GET /plugins/migrations`: what `flowhost plugins migrations` shows of the running host. */
export function migrationsSurface(plugins: ReadonlyArray<PluginDefinition>, store: DocumentStore): SurfaceDefinition {
  return withResponses(
    {
      id: 'plugin-migrations',
      routes: [
        defineRoute({
          method: 'GET',
          path: '/plugins/migrations',
          permission: { capability: 'manage_options' },
          summary: "Each plugin's data migrations: applied and pending steps, the last applied, a failure, the lock holder",
          async handle() {
            const data = await migrationStatuses(plugins, store);
            return { success: true, data, total: data.length, pending: data.some((s) => s.pending.length > 0) };
          },
        }),
      ],
    },
    { 'GET /plugins/migrations': { 200: successBody({ data: list(status), total: int, pending: bool }) } },
  );
}
