import { PluginError } from '../../core/errors.js';
import type { HostRegistries } from '../../core/kernel/registries.js';
import { compileShared, createAjv, schemaProblem } from '../../core/kernel/validator.js';
import type { JsonSchema } from '../../core/kernel/json-schema.js';

/**
 * Contracts checked once, at boot, so a malformed contribution stops start-up naming its
 * plugin and item instead of booting and answering 500 at first use: every schema an
 * extension point's items bring (a handler's settings, a tool's parameters) is a valid
 * JSON Schema. What an item must have besides (a handler's fetch()) its point checks
 * when it is added.
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
  // Plugin-owned extension points say which part of an item is a schema (a tool's parameters).
  for (const { point, registry } of registries.extensionPoints()) {
    if (!point.schemaOf) continue;
    for (const { owner: by, item } of registry.entries()) {
      compiles(by, `${point.id} '${String((item as Record<string, unknown>)[point.key])}'`, point.schemaOf(item));
    }
  }
}
