/**
 * A plugin's settings while the host runs: the effective values `services.config` hands
 * each plugin (file/env settings, then stored ones over them, validated, defaults applied),
 * a change saved through the API, applied at once when the plugin has `onSettingsChanged`,
 * otherwise kept pending until the next start.
 */
import type { PluginDefinition } from '../../core/kernel/plugin.js';
import type { Logger } from '../../core/kernel/logger.js';
import type { Clock } from '../../core/kernel/clock.js';
import type { ValidationIssue } from '../../core/kernel/validation-issues.js';
import { createAjv, validateWith } from '../../core/kernel/validator.js';
import { stableJson } from '../../core/kernel/stable-json.js';
import { apiError } from '../../core/errors/catalogue.js';
import { validationError } from '../http/error-body.js';
import { writeOnlyKeys, type PluginSettingsStore, type StoredPluginSettings } from './stored-settings.js';

export interface PluginSettingsView {
  plugin: string;
  schema: Record<string, unknown> | null;
  /** Effective values after the next start (now, unless restart_required), without the writeOnly ones. */
  values: Record<string, unknown>;
  /** Each writeOnly setting: whether it has a value (never the value). */
  secrets: Record<string, { set: boolean }>;
  /** Keys set at run time (stored), which win over the file/env settings. */
  stored: string[];
  /** Whether the plugin applies a change without a restart (it has onSettingsChanged). */
  live: boolean;
  /** A saved change this host has not applied: it takes effect at the next start. */
  restart_required: boolean;
  /** Saved settings that fail the schema (set aside at start-up), by field: fix or clear them. */
  invalid?: Record<string, string>;
}

export interface RuntimeSettingsOptions {
  definitions: ReadonlyArray<PluginDefinition>;
  /** File/env settings per plugin (config `pluginSettings`). */
  fileSettings: Record<string, Record<string, unknown>>;
  /** The effective settings each plugin's `services.config` returned (updated in place on a live change). */
  applied: Map<string, Record<string, unknown>>;
  stored: PluginSettingsStore;
  clock: Clock;
  log: Logger;
}

const ajv = createAjv({ validateSchema: false });

export function runtimeSettings(options: RuntimeSettingsOptions) {
  const byId = new Map(options.definitions.map((d) => [d.id, d]));
  const pending = new Set<string>();

  const definitionOf = (id: string) => {
    const def = byId.get(id);
    if (!def) throw apiError('plugin_not_found', { message: `No plugin '${id}' is loaded` });
    return def;
  };

  /** File settings, stored over them, validated (defaults applied); the issues when they fail. */
  const effective = (
    def: PluginDefinition,
    stored: StoredPluginSettings,
  ): { value: Record<string, unknown>; issues: ValidationIssue[] } => {
    const value = structuredClone({ ...(options.fileSettings[def.id] ?? {}), ...options.stored.open(def.id, stored) });
    const issues = def.settingsSchema ? validateWith(ajv, def.settingsSchema, value) : [];
    return { value, issues };
  };

  async function view(id: string): Promise<PluginSettingsView> {
    const def = definitionOf(id);
    const stored = await options.stored.read(id);
    const secretKeys = writeOnlyKeys(def.settingsSchema);
    const { value, issues } = effective(def, stored);
    const values: Record<string, unknown> = {};
    const secrets: Record<string, { set: boolean }> = {};
    for (const key of secretKeys) secrets[key] = { set: value[key] !== undefined && value[key] !== '' };
    for (const [key, v] of Object.entries(value)) if (!secretKeys.has(key)) values[key] = v;
    return {
      plugin: id,
      schema: (def.settingsSchema as Record<string, unknown> | undefined) ?? null,
      values,
      secrets,
      stored: [...Object.keys(stored.values), ...Object.keys(stored.secrets)].sort(),
      live: typeof def.onSettingsChanged === 'function',
      restart_required: pending.has(id),
      ...(issues.length ? { invalid: Object.fromEntries(issues.map((i) => [i.field || 'value', i.message])) } : {}),
    };
  }

  /**
   * Applies a patch: a key set to null goes back to its file/env value (or default); a
   * writeOnly key given '' keeps its stored secret. Validated as a whole before anything
   * is saved; a 400 names each field.
   */
  async function patch(id: string, body: Record<string, unknown>): Promise<PluginSettingsView> {
    const def = definitionOf(id);
    if (!def.settingsSchema) throw apiError('plugin_has_no_settings', { message: `Plugin '${id}' declares no settingsSchema` });
    const secretKeys = writeOnlyKeys(def.settingsSchema);
    const current = await options.stored.read(id);
    const next: StoredPluginSettings = { values: { ...current.values }, secrets: { ...current.secrets } };
    const typeIssues: ValidationIssue[] = [];
    for (const [key, value] of Object.entries(body)) {
      if (secretKeys.has(key)) {
        if (value === null) delete next.secrets[key];
        else if (value === '') continue;
        else if (typeof value !== 'string')
          typeIssues.push({ field: key, message: `${key} must be a string (a secret setting)`, missing: false });
        else next.secrets[key] = options.stored.seal(id, key, value);
      } else if (value === null) delete next.values[key];
      else next.values[key] = value;
    }
    if (typeIssues.length) throw validationError('body', typeIssues);
    const { value, issues } = effective(def, next);
    if (issues.length) throw validationError('body', issues);
    await options.stored.write(id, next, options.clock.now());
    await apply(def, value);
    return view(id);
  }

  /** Live when the plugin takes the hook; otherwise pending unless the value is what runs already. */
  async function apply(def: PluginDefinition, value: Record<string, unknown>): Promise<void> {
    const running = options.applied.get(def.id);
    if (running && stableJson(running) === stableJson(value)) {
      pending.delete(def.id);
      return;
    }
    if (!def.onSettingsChanged) {
      pending.add(def.id);
      return;
    }
    // The object services.config gave out, changed in place: a plugin holding it reads the new values.
    const target = running ?? {};
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, value);
    options.applied.set(def.id, target);
    try {
      await def.onSettingsChanged(structuredClone(value));
      pending.delete(def.id);
    } catch (error) {
      // Saved, and the config object holds it; the plugin's own state may not: a restart settles it.
      pending.add(def.id);
      options.log.error(
        { plugin: def.id, err: { message: error instanceof Error ? error.message : String(error) } },
        `Plugin '${def.id}': onSettingsChanged failed; the new settings take full effect at the next start`,
      );
    }
  }

  /** The plugins that declare settings: whether each applies changes live and whether one waits for a restart. */
  function list(): Array<{ plugin: string; description: string | null; live: boolean; restart_required: boolean }> {
    return options.definitions
      .filter((d) => d.settingsSchema)
      .map((d) => ({
        plugin: d.id,
        description: d.description ?? null,
        live: typeof d.onSettingsChanged === 'function',
        restart_required: pending.has(d.id),
      }));
  }

  return { view, patch, list };
}

export type RuntimeSettings = ReturnType<typeof runtimeSettings>;
