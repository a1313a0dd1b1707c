/**
 * Portable export and import of a pipeline with its flows (`flowhost_export: 1`).
 *
 * Export names steps by 1-based position, never by id, and leaves out every secret: a
 * handler setting whose name is secret (core/security/mask.ts isSecretKey) or that the
 * handler's settings schema marks `writeOnly`, the `user:password@` of any URL (the address
 * is kept), and the webhook trigger altogether. What was left out is listed in `secrets_omitted`.
 *
 * Import checks the whole document before writing anything, then writes a NEW pipeline
 * hidden behind the delete mark, its flows unscheduled, schedules them, and reveals the
 * pipeline last. A failure midway removes what was written; a crash midway leaves the mark,
 * and the next boot removes the pipeline with its flows and schedules (PipelinesService.init).
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isApiError } from '../errors.js';
import type { Clock } from '../kernel/clock.js';
import type { Registries } from '../kernel/registries.js';
import type { ScheduleIntervals } from '../../sdk/contract/schedule-intervals.js';
import type { HandlerCatalogue } from '../../sdk/contract/handler-catalogue.js';
import type { JsonSchema } from '../kernel/json-schema.js';
import { compileShared, createAjv } from '../kernel/validator.js';
import { isSecretKey } from '../security/mask.js';
import { urlCredentials, withUserinfo } from '../security/url-credentials.js';
import { rewriteSecretParameters } from '../security/url-query-secrets.js';
import type { PipelineRecord } from '../pipelines/model.js';
import type { Principal } from '../kernel/principal.js';
import type { PipelinesService } from '../pipelines/service.js';
import { publicScheduling, stepKey, type FlowRecord, type FlowStepSettings, type SchedulingConfig } from './model.js';
import type { FlowsService } from './service.js';
import { EXPORT_VERSIONS, exportDocumentSchema } from './portable-schemas.js';
import { apiError } from '../errors/catalogue.js';

export interface ExportStep {
  position: number;
  type: string;
  label?: string;
  provider?: string;
  model?: string;
  system_prompt?: string;
}

export interface ExportFlowStep {
  handler_slug?: string | null;
  handler_config?: Record<string, unknown>;
  enabled?: boolean;
  user_message?: string;
  secrets_omitted?: string[];
}

export interface ExportFlow {
  name: string;
  /** The flow's revision the export was taken at (null: a flow not changed since revisions were kept). */
  revision?: number | null;
  scheduling_config?: SchedulingConfig;
  steps: Record<string, ExportFlowStep>;
}

export interface ExportDocument {
  flowhost_export: number;
  exported_at?: string;
  pipeline: { name: string; revision?: number | null; steps: ExportStep[] };
  flows: ExportFlow[];
  secrets_omitted?: string[];
}

export interface ImportResult {
  pipeline_id: number;
  pipeline_name: string;
  flow_ids: number[];
  secrets_omitted: string[];
}

/** The pipeline-step settings an export carries (an ai step's model choice). */
const STEP_CONFIG_FIELDS = ['provider', 'model', 'system_prompt'] as const;

const isPlainObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

const invalid = (message: string, params: Record<string, string>) => apiError('invalid_import', { message, data: { params } });

/** `/flows/0/steps/2/handler_slug` → `flows[0].steps.2.handler_slug` (array indexes in brackets, position keys dotted). */
function documentPath(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let out = '';
  parts.forEach((part, i) => {
    const parent = parts.slice(0, i).join('/');
    const isIndex = /^\d+$/.test(part) && (parent === 'flows' || parent === 'pipeline/steps' || /secrets_omitted$/.test(parent));
    out += isIndex ? `[${part}]` : out ? `.${part}` : part;
  });
  return out;
}

function issueOf(error: ErrorObject): [string, string] {
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return [documentPath(`${error.instancePath}/${missing}`), 'is required'];
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return [documentPath(`${error.instancePath}/${extra}`), 'is not a field of the export format'];
  }
  if (error.keyword === 'propertyNames') {
    const name = (error.params as { propertyName?: string }).propertyName ?? '';
    return [documentPath(`${error.instancePath}/${name}`), 'steps are keyed by their 1-based position'];
  }
  if (error.keyword === 'enum')
    return [
      documentPath(error.instancePath) || '(document)',
      `must be one of: ${((error.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`,
    ];
  return [documentPath(error.instancePath) || '(document)', error.message ?? 'is invalid'];
}

/**
 * Removes secret fields from a handler config (by name, or `writeOnly` in its schema) and the
 * credentials from any URL carrying them (the address stays, without `user:password@` and
 * without its secret query parameters); returns the dotted paths of both.
 */
/** The address without its userinfo and secret query parameters; null when it has neither. */
function withoutUrlSecrets(value: string): string | null {
  const url = urlCredentials(value);
  const address = url ? withUserinfo(url, '') : value;
  return rewriteSecretParameters(address, () => null) ?? (url ? address : null);
}

function withoutSecrets(
  config: Record<string, unknown>,
  schema: JsonSchema | undefined,
): { config: Record<string, unknown>; omitted: string[] } {
  const omitted: string[] = [];
  const walk = (value: unknown, sub: JsonSchema | undefined, path: string): unknown => {
    if (Array.isArray(value)) {
      const items = sub && isPlainObject(sub.items) ? (sub.items as JsonSchema) : undefined;
      return value.map((item, i) => walk(item, items, `${path}[${i}]`));
    }
    if (!isPlainObject(value)) return value;
    const props = sub && isPlainObject(sub.properties) ? (sub.properties as Record<string, JsonSchema>) : {};
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      const propSchema = isPlainObject(props[key]) ? props[key] : undefined;
      if (isSecretKey(key) || propSchema?.writeOnly === true) {
        omitted.push(field);
        continue;
      }
      const address = typeof inner === 'string' ? withoutUrlSecrets(inner) : null;
      if (address !== null) omitted.push(field);
      out[key] = address ?? walk(inner, propSchema, field);
    }
    return out;
  };
  return { config: walk(config, schema, '') as Record<string, unknown>, omitted };
}

/** The revision a record is at, as an export carries it. */
const revisionOf = (record: { revision?: unknown }): number | null => (typeof record.revision === 'number' ? record.revision : null);

export class PortableFlows {
  private readonly ajv = createAjv({ useDefaults: false });
  private validateDocument: ValidateFunction | null = null;

  constructor(
    private readonly pipelines: PipelinesService,
    private readonly flows: FlowsService,
    private readonly registries: Registries,
    private readonly catalogue: HandlerCatalogue,
    private readonly intervals: ScheduleIntervals,
    private readonly clock: Clock,
  ) {}

  /** The document of a pipeline with the given flows of it (all of them for a pipeline export). */
  exportOf(pipeline: PipelineRecord, flows: FlowRecord[]): ExportDocument {
    const ordered = [...pipeline.steps].sort((a, b) => a.execution_order - b.execution_order);
    const steps: ExportStep[] = ordered.map((step, index) => {
      const out: ExportStep = { position: index + 1, type: step.step_type, label: step.label };
      for (const field of STEP_CONFIG_FIELDS) {
        const value = step.config?.[field];
        if (typeof value === 'string') out[field] = value;
      }
      return out;
    });
    const allOmitted: string[] = [];
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const flowDocs = flows.map((flow, flowIndex): ExportFlow => {
      const own: Record<string, ExportFlowStep> = {};
      ordered.forEach((step, index) => {
        const position = index + 1;
        const settings = flow.steps[stepKey(step.pipeline_step_id)];
        if (!settings) return;
        const entry: ExportFlowStep = { handler_slug: settings.handler_slug ?? null, enabled: settings.enabled !== false };
        if (settings.handler_slug) {
          const handler = this.catalogue.handler(settings.handler_slug);
          const { config, omitted } = withoutSecrets(settings.handler_config ?? {}, handler?.settings as JsonSchema | undefined);
          entry.handler_config = config;
          if (omitted.length) {
            entry.secrets_omitted = omitted;
            for (const field of omitted) allOmitted.push(`flows[${flowIndex}].steps.${position}.handler_config.${field}`);
          }
        } else {
          entry.handler_config = {};
        }
        if (step.step_type === 'ai' && typeof settings.user_message === 'string') entry.user_message = settings.user_message;
        own[String(position)] = entry;
      });
      const schedule = publicScheduling(flow.scheduling_config ?? { interval: 'manual' });
      // A one_time run already past cannot be imported as such: the copy is manual.
      const scheduling =
        schedule.interval === 'one_time' && !(typeof schedule.timestamp === 'number' && schedule.timestamp > nowSeconds)
          ? { interval: 'manual' }
          : schedule;
      return { name: flow.flow_name, revision: revisionOf(flow), scheduling_config: scheduling, steps: own };
    });
    return {
      flowhost_export: 1,
      exported_at: this.clock.now().toISOString(),
      pipeline: { name: pipeline.pipeline_name, revision: revisionOf(pipeline), steps },
      flows: flowDocs,
      secrets_omitted: allOmitted,
    };
  }

  async exportFlow(flowId: number): Promise<ExportDocument> {
    const flow = await this.flows.get(flowId);
    const pipeline = await this.pipelines.get(flow.pipeline_id);
    return this.exportOf(pipeline, [flow]);
  }

  async exportPipeline(pipelineId: number): Promise<ExportDocument> {
    const pipeline = await this.pipelines.get(pipelineId);
    const flows: FlowRecord[] = [];
    for (let offset = 0; ; offset += 100) {
      const { items } = await this.flows.list({ pipelineId, perPage: 100, offset });
      flows.push(...items);
      if (items.length < 100) break;
    }
    return this.exportOf(pipeline, flows);
  }

  /** Checks the whole document (400 invalid_import naming the field) and answers what to write. */
  private check(
    input: unknown,
    handlerDefaults: Record<string, Record<string, unknown>> = {},
  ): {
    doc: ExportDocument;
    steps: Array<{ step_type: string; label?: string; config: Record<string, unknown> }>;
    flows: Array<{ name: string; scheduling: SchedulingConfig; settings: Map<number, FlowStepSettings> }>;
    omitted: string[];
  } {
    if (!isPlainObject(input)) throw invalid('The import document must be a JSON object', { '(document)': 'must be an object' });
    const version = input.flowhost_export;
    if (version === undefined)
      throw invalid('flowhost_export: is required (this is not a Flowhost export document)', { flowhost_export: 'is required' });
    if (!(EXPORT_VERSIONS as readonly unknown[]).includes(version)) {
      throw invalid(
        `flowhost_export: version ${JSON.stringify(version)} is not supported (supported versions: ${EXPORT_VERSIONS.join(', ')})`,
        { flowhost_export: `supported versions: ${EXPORT_VERSIONS.join(', ')}` },
      );
    }
    this.validateDocument ??= compileShared(this.ajv, exportDocumentSchema as object);
    if (!this.validateDocument(input)) {
      const params: Record<string, string> = {};
      for (const error of this.validateDocument.errors ?? []) {
        if (error.propertyName !== undefined) continue; // the propertyNames error itself says it
        const [path, message] = issueOf(error);
        params[path] ??= message;
      }
      const listed = Object.entries(params)
        .slice(0, 5)
        .map(([p, m]) => `${p}: ${m}`);
      throw invalid(`Invalid import document: ${listed.join('; ')}`, params);
    }
    const doc = input as unknown as ExportDocument;
    const fail = (path: string, message: string) => invalid(`${path}: ${message}`, { [path]: message });

    // Pipeline steps: positions 1..n, each once; types and providers known here.
    const byPosition = new Map<number, ExportStep>();
    doc.pipeline.steps.forEach((step, i) => {
      if (byPosition.has(step.position)) throw fail(`pipeline.steps[${i}].position`, `position ${step.position} appears twice`);
      byPosition.set(step.position, step);
    });
    const count = doc.pipeline.steps.length;
    for (let p = 1; p <= count; p++)
      if (!byPosition.has(p)) throw fail('pipeline.steps', `positions must be 1 to ${count}, each once (${p} is missing)`);
    const stepTypes = this.catalogue.stepTypes();
    const providers = this.registries.providers();
    const steps = [...byPosition.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, step]) => {
        const i = doc.pipeline.steps.indexOf(step);
        if (!stepTypes.some((t) => t.type === step.type))
          throw fail(
            `pipeline.steps[${i}].type`,
            `unknown step type '${step.type}' (this host has: ${stepTypes.map((t) => t.type).join(', ')})`,
          );
        if (step.provider && !providers.some((p) => p.slug === step.provider))
          throw fail(`pipeline.steps[${i}].provider`, `unknown AI provider '${step.provider}'`);
        const config: Record<string, unknown> = {};
        for (const field of STEP_CONFIG_FIELDS) if (step[field] !== undefined) config[field] = step[field];
        return { step_type: step.type, ...(step.label ? { label: step.label } : {}), config };
      });

    const omitted: string[] = [];
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const intervals = this.intervals.list();
    const flows = doc.flows.map((flow, f) => {
      const at = `flows[${f}]`;
      let scheduling: SchedulingConfig = flow.scheduling_config ?? { interval: 'manual' };
      if (!intervals.some((i) => i.value === scheduling.interval)) {
        throw fail(
          `${at}.scheduling_config.interval`,
          `unknown interval '${scheduling.interval}' (this host has: ${intervals.map((i) => i.value).join(', ')})`,
        );
      }
      if (scheduling.interval === 'one_time') {
        scheduling =
          typeof scheduling.timestamp === 'number' && scheduling.timestamp > nowSeconds
            ? { interval: 'one_time', timestamp: scheduling.timestamp }
            : { interval: 'manual' };
      } else {
        scheduling = { interval: scheduling.interval };
      }
      const settings = new Map<number, FlowStepSettings>();
      for (const [key, given] of Object.entries(flow.steps)) {
        const position = Number(key);
        const path = `${at}.steps.${key}`;
        const step = byPosition.get(position);
        if (!step) throw fail(path, `the pipeline has no step at position ${position} (it has ${count})`);
        const own: FlowStepSettings = { handler_slug: null, handler_config: {}, enabled: given.enabled !== false };
        if (given.handler_slug) {
          const handler = this.catalogue.handler(given.handler_slug);
          if (!handler) throw fail(`${path}.handler_slug`, `unknown handler '${given.handler_slug}'`);
          try {
            // The handler's defaults first (as for any new flow step); the document's settings win.
            own.handler_config = this.flows.checkHandler(
              step.type,
              given.handler_slug,
              { ...(handlerDefaults[given.handler_slug] ?? {}), ...(given.handler_config ?? {}) },
              // Secrets the export left out, and settings the flow never had (a step still
              // being set up exports as it is): the imported step shows them as missing.
              'any',
            );
          } catch (error) {
            if (!isApiError(error)) throw error;
            const params = (error.data.params as Record<string, string> | undefined) ?? {};
            const first = Object.entries(params)[0];
            if (first)
              throw fail(
                `${path}.handler_config.${first[0]}`,
                `${first[1].startsWith(`${first[0]} `) ? first[1].slice(first[0].length + 1) : first[1]} (handler '${given.handler_slug}')`,
              );
            throw fail(`${path}.handler_slug`, error.message);
          }
          own.handler_slug = given.handler_slug;
          // A secret the export left out that a default supplies is no longer missing.
          for (const field of given.secrets_omitted ?? [])
            if (!(field in (handlerDefaults[given.handler_slug] ?? {}))) omitted.push(`${at}.steps.${key}.handler_config.${field}`);
        } else if (given.handler_config && Object.keys(given.handler_config).length > 0) {
          throw fail(`${path}.handler_config`, 'a handler_config needs a handler_slug');
        }
        if (given.user_message !== undefined) {
          if (step.type !== 'ai')
            throw fail(`${path}.user_message`, `only ai steps take a user_message; step ${position} is a ${step.type} step`);
          own.user_message = given.user_message;
        }
        settings.set(position, own);
      }
      return { name: flow.name, scheduling, settings };
    });
    return { doc, steps, flows, omitted };
  }

  /** `by`: who imports; the flows are theirs, as flows they create are, and each revision (`import`) names them. */
  async import(input: unknown, by: Principal | null = null): Promise<ImportResult> {
    const ownerId = by?.userId ?? null;
    const plan = this.check(input, await this.flows.defaults.openedAll());
    const name = await this.pipelines.freeName(plan.doc.pipeline.name);
    const pipeline = await this.pipelines.create({ pipeline_name: name, steps: plan.steps }, { hidden: true }, by);
    const flowIds: number[] = [];
    try {
      const ordered = [...pipeline.steps].sort((a, b) => a.execution_order - b.execution_order);
      const written: FlowRecord[] = [];
      for (const flow of plan.flows) {
        const steps: Record<string, FlowStepSettings> = {};
        for (const [position, settings] of flow.settings) steps[ordered[position - 1]!.pipeline_step_id] = settings;
        const record = await this.flows.insertChecked(
          pipeline,
          {
            flow_name: flow.name,
            steps,
            scheduling_config: flow.scheduling,
            owner_id: ownerId,
          },
          by,
        );
        written.push(record);
        flowIds.push(record.flow_id);
      }
      for (const record of written) await this.flows.schedule.schedule(record.flow_id, record.scheduling_config);
      await this.pipelines.reveal(pipeline.pipeline_id);
    } catch (error) {
      await this.pipelines.discardHidden(pipeline.pipeline_id, by).catch(() => undefined);
      throw error;
    }
    return { pipeline_id: pipeline.pipeline_id, pipeline_name: name, flow_ids: flowIds, secrets_omitted: plan.omitted };
  }
}
