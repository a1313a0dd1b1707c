/**
 * Tools an `ai` step may offer its model, from other plugins (the MCP client's remote tools).
 * The `ai` step type (steps-core) owns the point `ai.toolSources`: a source names the step
 * setting that lists its tools (`mcp_tools: ["docs/search"]`) and resolves those names to
 * tools the step runs when the model calls them.
 */
import { createExtensionPoint } from '../kernel/extension-point.js';
import type { CallContext, JsonValue } from '../kernel/contributions.js';
import type { JsonSchema } from '../kernel/json-schema.js';

/** One tool as the step offers it to the model. */
export interface AiStepTool {
  /** The name the model sees: letters, digits, `_` and `-`, at most 64 characters (what every provider accepts). */
  name: string;
  /** The name the step's record and errors give it (`docs/search`). */
  label: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
  /**
   * Runs one call. A tool's own error answer is a result the model reads; a tool that
   * cannot be reached (connection lost, timeout, a 5xx) throws, and the step fails with it.
   */
  run(args: { [key: string]: JsonValue }, ctx: CallContext): Promise<JsonValue>;
}

export interface AiToolSource {
  /** The ai step setting (pipeline step config) listing this source's tools, e.g. `mcp_tools`; the key. */
  setting: string;
  /** The tools named; throws an Error saying which name may not be used and why. */
  resolve(names: readonly string[], ctx: CallContext): Promise<AiStepTool[]>;
}

/** Tool sources for the `ai` step, keyed by `setting`; owned by plugin 'steps-core'. */
export const aiToolSources = createExtensionPoint<AiToolSource>({
  id: 'ai.toolSources',
  owner: 'steps-core',
  key: 'setting',
  description: 'tools an ai step may offer its model',
  check: (source) => {
    if (typeof source.resolve !== 'function') throw new Error('has no resolve()');
    if (!/^[a-z][a-z0-9_]{0,39}$/.test(source.setting)) throw new Error('setting must be a lower-case identifier (e.g. mcp_tools)');
  },
});
