import { PluginError } from '../../core/errors.js';
import type { HostRegistries } from '../../core/kernel/registries.js';
import { compileShared, createAjv, schemaProblem } from '../../core/kernel/validator.js';
import type { JsonSchema } from '../../core/kernel/json-schema.js';

const HANDLER_RUNS = { fetch: 'fetch', publish: 'publish', update: 'update' } as const;

/**
 * Contracts checked once, at boot, so a malformed contribution stops start-up naming its
 * plugin and item instead of booting and answering 500 at first use: every schema is a
 * valid JSON Schema, and every handler has the function its type promises.
 *
 * With `compile` (check mode, on in every test host) each schema is compiled as well, which
 * also catches what only code generation finds (a $ref that resolves nowhere). A serving
 * host checks against the meta-schema only: compiling every schema at boot cost about
 * 100 ms of CPU and kept the generated code in memory, for validators built again on use.
 */
export function checkContributions(registries: HostRegistries, options: { compile: boolean }): void {
  const ajv = options.compile ? createAjv() : null;
  const compiles = (owner: string, what: string, schema: JsonSchema | undefined) => {
    if (schema === undefined) return;
    try {
      if (ajv) compileShared(ajv, schema as object);
      else {
        const problem = schemaProblem(schema as object);
        if (problem) throw new Error(problem);
      }
    } catch (error) {
      throw new PluginError(owner, `${what}: the schema does not compile: ${(error as Error).message}`);
    }
  };
  const owner = (item: object) => registries.ownerOf(item) ?? 'unknown';
  for (const handler of registries.handlers()) {
    compiles(owner(handler), `handler '${handler.slug}' settings`, handler.settings);
    const run = HANDLER_RUNS[handler.type];
    if (typeof (handler as unknown as Record<string, unknown>)[run] !== 'function') {
      throw new PluginError(owner(handler), `handler '${handler.slug}' is a ${handler.type} handler without a ${run}() function`);
    }
    const limit = handler.textLimit;
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0))
      throw new PluginError(owner(handler), `handler '${handler.slug}': textLimit must be a positive integer (got ${String(limit)})`);
    if (limit !== undefined && handler.type !== 'publish')
      throw new PluginError(
        owner(handler),
        `handler '${handler.slug}': textLimit is for publish handlers; this one is a ${handler.type} handler`,
      );
  }
  // Plugin-owned extension points say which part of an item is a schema (a tool's parameters).
  for (const { point, registry } of registries.extensionPoints()) {
    if (!point.schemaOf) continue;
    for (const { owner: by, item } of registry.entries()) {
      compiles(by, `${point.id} '${String((item as Record<string, unknown>)[point.key])}'`, point.schemaOf(item));
    }
  }
  for (const stepType of registries.stepTypes()) {
    if (stepType.handlerType === null && typeof stepType.run !== 'function') {
      throw new PluginError(owner(stepType), `step type '${stepType.type}' needs no handler, so it must have a run() function`);
    }
  }
}
