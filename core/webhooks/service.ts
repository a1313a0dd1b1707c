import { randomBytes, randomUUID } from 'node:crypto';
import type { Principal } from '../kernel/principal.js';
import type { ChangeLog } from '../logs/change-log.js';
import type { Clock } from '../kernel/clock.js';
import type { ExtensionPointContributions } from '../kernel/extension-point.js';
import type { PresetDefinition, VerifierDefinition, VerifierVerdict } from '../kernel/contributions.js';
import { safeEqual } from '../security/constant-time.js';
import { maskSecret } from '../security/mask.js';
import type { Vault } from '../security/vault.js';
import type { FlowsService } from '../flows/service.js';
import type { LegacyFlowWebhooks } from '../flows/legacy-webhooks.js';
import type { FlowRecord } from '../flows/model.js';
import { checkTemplate, type HmacTemplate } from './hmac-template.js';
import { verifyHmac, type InboundRequest } from './hmac-verify.js';
import { LEGACY_KEYS, hasLegacyWebhook, readLegacyWebhook } from './legacy-config.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_RATE_LIMIT,
  DEFAULT_ROTATION_TTL_SECONDS,
  type StoredSecret,
  type WebhookConfig,
} from './model.js';
import { apiError } from '../errors/catalogue.js';
import { DEFAULT_IDEMPOTENCY_WINDOW_SECONDS } from './idempotency-key.js';

export interface EnableInput {
  mode: string;
  preset?: string;
  template?: Record<string, unknown>;
  overrides?: Record<string, unknown>;
  secret?: string;
  /** Duplicate event-id protection, in seconds (0 or absent: off, the spec's behaviour); also the Idempotency-Key window. */
  dedupe_window_seconds?: number;
}

/** Where the webhooks domain writes what it wants an operator to read (the flow's log). */
export type WebhookLog = (level: 'info' | 'warning', message: string, context: Record<string, unknown>) => Promise<void>;

export type VerifyOutcome =
  | { ok: true; flow: FlowRecord; config: WebhookConfig; eventId: string | null }
  | { ok: false; flow: FlowRecord | null; reason: string };

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(base);
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current)
        ? deepMerge(current as Record<string, unknown>, value as Record<string, unknown>)
        : structuredClone(value);
  }
  return out;
}

const newSecretValue = () => randomBytes(32).toString('hex');

/**
 * Duplicate protection keys on an event id (an hmac template's id_source, or what a
 * verifier mode reports) or on a delivery's Idempotency-Key. A window on a trigger with no
 * event id is accepted (it is then the Idempotency-Key window) with a word saying so.
 */
function dedupeWarnings(config: Pick<WebhookConfig, 'mode' | 'template' | 'dedupe_window_seconds'>): string[] {
  if (!config.dedupe_window_seconds) return [];
  if (config.mode === 'bearer' || (config.mode === 'hmac' && !config.template?.id_source))
    return [
      `This trigger's deliveries carry no event id (${config.mode === 'bearer' ? 'bearer mode' : 'the template has no id_source'}): the duplicate window applies only to deliveries that send an Idempotency-Key header.`,
    ];
  return [];
}

/**
 * Webhook triggers: per-flow bearer tokens or HMAC templates with rotating secrets, all
 * sealed by the vault (bound to their flow) and never shown again after creation.
 */
/** Opened webhook secrets kept in memory (see `open`). */
const OPENED_CACHE = 1000;

export class WebhooksService {
  constructor(
    private readonly deps: {
      flows: FlowsService;
      legacy: LegacyFlowWebhooks;
      vault: Vault;
      clock: Clock;
      /** The domain's extension points, read at call time (sealed once every setup ran). */
      presets: ExtensionPointContributions<PresetDefinition>;
      verifiers: ExtensionPointContributions<VerifierDefinition>;
      log?: WebhookLog;
      changes?: ChangeLog;
    },
  ) {}

  /** The HMAC presets plugins added (GET /webhook-presets). */
  presets(): readonly PresetDefinition[] {
    return this.deps.presets.list();
  }

  /** Logs a change of a flow's trigger with who made it (never a token or secret value). */
  private async changed(
    by: Principal | null | undefined,
    flowId: number,
    what: string,
    change: string,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    await this.deps.changes?.(by, `Flow ${flowId}: webhook trigger ${what}`, { flow_id: flowId, change: `webhook.${change}`, ...extra });
  }

  async init(): Promise<void> {
    await this.migrateAll();
  }

  private seal(flowId: number, value: string): string {
    return this.deps.vault.encrypt(value, `webhook:${flowId}`);
  }

  /**
   * The plain secret of a sealed value. Every trigger request checks against the flow's
   * secrets, and AES-GCM decryption showed in the trigger's profile: the opened values are
   * kept by their sealed text (a new secret is a new sealed text, so nothing goes stale),
   * at most OPENED_CACHE of them.
   */
  private open(flowId: number, sealed: string): string {
    const key = `${flowId}:${sealed}`;
    const cached = this.opened.get(key);
    if (cached !== undefined) return cached;
    const value = this.deps.vault.decrypt(sealed, `webhook:${flowId}`);
    if (this.opened.size >= OPENED_CACHE) this.opened.delete(this.opened.keys().next().value!);
    this.opened.set(key, value);
    return value;
  }
  private readonly opened = new Map<string, string>();

  async config(flowId: number): Promise<{ flow: FlowRecord; config: WebhookConfig | null }> {
    const flow = await this.migrated(await this.deps.flows.get(flowId));
    return { flow, config: (flow.webhook as WebhookConfig | undefined) ?? null };
  }

  // Legacy settings ---------------------------------------------------------------------

  /**
   * The flow with the original plugin's webhook settings (kept under scheduling_config)
   * migrated to the template form, once: the new `webhook` and the removal of the old keys
   * are one single-document update, conditional on no `webhook` being there yet, so two
   * hosts reading at once migrate it exactly once and a crash leaves either shape whole.
   */
  private async migrated(flow: FlowRecord): Promise<FlowRecord> {
    if (flow.webhook !== undefined || !hasLegacyWebhook(flow.scheduling_config as unknown as Record<string, unknown>)) return flow;
    const legacy = readLegacyWebhook(flow.scheduling_config as unknown as Record<string, unknown>);
    const now = this.deps.clock.now();
    const flowId = flow.flow_id;
    const config: WebhookConfig = {
      enabled: legacy.enabled,
      mode: legacy.mode,
      token_sealed: legacy.token ? this.seal(flowId, legacy.token) : null,
      template: legacy.template,
      preset: null,
      secrets: legacy.secrets.map((secret) => ({
        id: secret.id ?? randomUUID(),
        sealed: this.seal(flowId, secret.value),
        expires_at: secret.expires_at,
        created_at: now,
      })),
      rate_limit: { ...DEFAULT_RATE_LIMIT },
      max_body_bytes: legacy.template?.max_body_bytes ?? DEFAULT_MAX_BODY_BYTES,
      dedupe_window_seconds: 0,
      updated_at: now,
    };
    if (await this.deps.legacy.migrateWebhook(flowId, config as unknown as Record<string, unknown>, LEGACY_KEYS)) {
      await this.deps.log?.(
        'info',
        `Webhook settings of flow ${flowId} migrated from the legacy ${legacy.shape} form to mode ${legacy.mode}`,
        { flow_id: flowId },
      );
      if (legacy.problem)
        await this.deps.log?.('warning', `Webhook trigger of flow ${flowId} migrated but refuses every request: ${legacy.problem}`, {
          flow_id: flowId,
        });
    }
    return (await this.deps.flows.record(flowId)) ?? flow;
  }

  /** Boot-time sweep: no legacy secret stays readable at rest once a host has started. */
  async migrateAll(): Promise<number> {
    const flows = await this.deps.legacy.withLegacyWebhookKeys(LEGACY_KEYS);
    for (const flow of flows) await this.migrated(flow);
    return flows.length;
  }

  private async save(flowId: number, config: WebhookConfig | null): Promise<void> {
    await this.deps.flows.saveWebhook(flowId, config ? { ...config, updated_at: this.deps.clock.now() } : null);
  }

  /** Turns the trigger on; answers the token or secret, the only time it is shown. */
  async enable(
    flowId: number,
    input: EnableInput,
    by?: Principal | null,
  ): Promise<{ status: Record<string, unknown>; token?: string; secret?: { id: string; value: string }; warnings: string[] }> {
    await this.deps.flows.get(flowId);
    const base: WebhookConfig = {
      enabled: true,
      mode: input.mode,
      token_sealed: null,
      template: null,
      preset: null,
      secrets: [],
      rate_limit: { ...DEFAULT_RATE_LIMIT },
      max_body_bytes: DEFAULT_MAX_BODY_BYTES,
      dedupe_window_seconds: 0,
      updated_at: this.deps.clock.now(),
    };
    const previous = (await this.config(flowId)).config;
    if (previous) base.rate_limit = previous.rate_limit;
    base.dedupe_window_seconds = input.dedupe_window_seconds ?? 0;
    if (input.mode === 'bearer') {
      const token = newSecretValue();
      await this.save(flowId, { ...base, token_sealed: this.seal(flowId, token) });
      await this.changed(by, flowId, 'enabled (bearer)', 'enable', { mode: 'bearer' });
      return { status: await this.status(flowId), token, warnings: dedupeWarnings(base) };
    }
    if (input.mode === 'hmac') {
      let template: Record<string, unknown>;
      if (input.preset) {
        const preset = this.deps.presets.get(input.preset);
        if (!preset)
          throw apiError('preset_not_found', {
            message: `No webhook preset '${input.preset}' is loaded (enable the webhook-presets plugin)`,
          });
        template = structuredClone(preset.template);
        base.preset = preset.slug;
      } else if (input.template) template = input.template;
      else throw apiError('template_required');
      if (input.overrides) template = deepMerge(template, input.overrides);
      const problems = checkTemplate(template);
      if (problems.length)
        throw apiError('invalid_template', { message: `Invalid HMAC template: ${problems.join('; ')}`, data: { problems } });
      base.template = template as unknown as HmacTemplate;
      base.max_body_bytes = Number((template as { max_body_bytes?: number }).max_body_bytes ?? DEFAULT_MAX_BODY_BYTES);
    } else if (!this.deps.verifiers.get(input.mode)) {
      throw apiError('invalid_mode', {
        message: `Unknown webhook mode '${input.mode}' (bearer, hmac${this.deps.verifiers
          .list()
          .map((v) => `, ${v.mode}`)
          .join('')})`,
      });
    }
    const value = input.secret ?? newSecretValue();
    const secret: StoredSecret = {
      id: randomUUID(),
      sealed: this.seal(flowId, value),
      expires_at: null,
      created_at: this.deps.clock.now(),
    };
    await this.save(flowId, { ...base, secrets: [secret] });
    await this.changed(
      by,
      flowId,
      `enabled (${input.mode}${base.preset ? `, preset ${base.preset}` : ''}); secret ${secret.id} issued`,
      'enable',
      { mode: input.mode, secret_id: secret.id },
    );
    return { status: await this.status(flowId), secret: { id: secret.id, value }, warnings: dedupeWarnings(base) };
  }

  async disable(flowId: number, by?: Principal | null): Promise<void> {
    await this.deps.flows.get(flowId);
    await this.save(flowId, null);
    await this.changed(by, flowId, 'disabled', 'disable');
  }

  /** bearer: a new token; the old one stops working at once. */
  async regenerate(flowId: number, by?: Principal | null): Promise<string> {
    const { config } = await this.require(flowId);
    if (config.mode !== 'bearer') throw apiError('not_bearer');
    const token = newSecretValue();
    await this.save(flowId, { ...config, token_sealed: this.seal(flowId, token) });
    await this.changed(by, flowId, 'token regenerated', 'regenerate');
    return token;
  }

  /**
   * Adds a new secret; the ones in force stay valid for `ttlSeconds` (default 7 days) so
   * senders can switch over, then are forgotten.
   */
  async rotate(
    flowId: number,
    options: { ttlSeconds?: number; value?: string } = {},
    by?: Principal | null,
  ): Promise<{ id: string; value: string }> {
    const { config } = await this.require(flowId);
    if (config.mode === 'bearer')
      throw apiError('not_hmac', { message: 'A bearer trigger has a token, not secrets; regenerate it instead' });
    const now = this.deps.clock.now();
    const ttl = options.ttlSeconds ?? DEFAULT_ROTATION_TTL_SECONDS;
    const graceEnd = new Date(now.getTime() + ttl * 1000);
    const kept = this.active(config, now).map((s) => ({
      ...s,
      expires_at: s.expires_at && s.expires_at < graceEnd ? s.expires_at : graceEnd,
    }));
    const value = options.value ?? newSecretValue();
    const secret: StoredSecret = { id: randomUUID(), sealed: this.seal(flowId, value), expires_at: null, created_at: now };
    await this.save(flowId, { ...config, secrets: [...kept, secret] });
    await this.changed(by, flowId, `secret rotated: new secret ${secret.id}, ${kept.length} kept for ${ttl} s`, 'rotate', {
      secret_id: secret.id,
      ttl_seconds: ttl,
    });
    return { id: secret.id, value };
  }

  /** Replaces every secret with one (no grace). */
  async setSecret(flowId: number, value?: string, by?: Principal | null): Promise<{ id: string; value: string }> {
    const { config } = await this.require(flowId);
    if (config.mode === 'bearer') throw apiError('not_hmac');
    const secretValue = value ?? newSecretValue();
    const secret: StoredSecret = {
      id: randomUUID(),
      sealed: this.seal(flowId, secretValue),
      expires_at: null,
      created_at: this.deps.clock.now(),
    };
    await this.save(flowId, { ...config, secrets: [secret] });
    await this.changed(by, flowId, `secrets replaced by secret ${secret.id}`, 'set-secret', { secret_id: secret.id });
    return { id: secret.id, value: secretValue };
  }

  async forget(flowId: number, secretId: string, by?: Principal | null): Promise<void> {
    const { config } = await this.require(flowId);
    if (!config.secrets.some((s) => s.id === secretId))
      throw apiError('secret_not_found', { message: `No secret ${secretId} on flow ${flowId}` });
    await this.save(flowId, { ...config, secrets: config.secrets.filter((s) => s.id !== secretId) });
    await this.changed(by, flowId, `secret ${secretId} forgotten`, 'forget-secret', { secret_id: secretId });
  }

  async setRateLimit(flowId: number, max: number, windowSeconds: number, by?: Principal | null): Promise<void> {
    const { config } = await this.require(flowId);
    await this.save(flowId, { ...config, rate_limit: { max, window_seconds: windowSeconds } });
    await this.changed(by, flowId, `rate limit set to ${max} per ${windowSeconds} s`, 'rate-limit', { max, window_seconds: windowSeconds });
  }

  /**
   * The duplicate window: 0 turns event-id protection off (Idempotency-Keys are then
   * remembered for the default day). Answers advice when the trigger has no event id.
   */
  async setDedupe(flowId: number, windowSeconds: number, by?: Principal | null): Promise<string[]> {
    const { config } = await this.require(flowId);
    const next = { ...config, dedupe_window_seconds: windowSeconds };
    await this.save(flowId, next);
    await this.changed(
      by,
      flowId,
      windowSeconds ? `duplicate protection set to ${windowSeconds} s` : 'duplicate protection turned off',
      'dedupe',
      { window_seconds: windowSeconds },
    );
    return dedupeWarnings(next);
  }

  /** What an operator may see: mode, preset, secret ids with expiry, masked values. */
  async status(flowId: number): Promise<Record<string, unknown>> {
    const { flow, config } = await this.config(flowId);
    if (!config) return { flow_id: flow.flow_id, enabled: false };
    const now = this.deps.clock.now();
    return {
      flow_id: flow.flow_id,
      enabled: config.enabled,
      mode: config.mode,
      preset: config.preset,
      token: config.token_sealed ? maskSecret(this.open(flowId, config.token_sealed)) : undefined,
      secrets: this.active(config, now).map((s) => ({
        id: s.id,
        value: maskSecret(this.open(flowId, s.sealed)),
        expires_at: s.expires_at?.toISOString() ?? null,
        created_at: s.created_at.toISOString(),
      })),
      template: config.template,
      rate_limit: config.rate_limit,
      max_body_bytes: config.max_body_bytes,
      dedupe_window_seconds: config.dedupe_window_seconds ?? 0,
      idempotency_window_seconds: config.dedupe_window_seconds || DEFAULT_IDEMPOTENCY_WINDOW_SECONDS,
    };
  }

  /** The flow a trigger request names, legacy settings migrated; null when there is none. */
  async triggerFlow(flowId: number): Promise<FlowRecord | null> {
    const found = await this.deps.flows.triggerRecord(flowId);
    return found ? this.migrated(found) : null;
  }

  /** The body limit a trigger request is read with (unknown flows: the default, and the answer is 401 anyway). */
  bodyLimitOf(flow: FlowRecord | null): number {
    const config = flow?.webhook as WebhookConfig | undefined;
    return config?.enabled ? config.max_body_bytes : DEFAULT_MAX_BODY_BYTES;
  }

  /**
   * Authenticates a trigger request against its flow as `triggerFlow` read it (null: no such
   * flow); the reason of a failure is for the flow's log only.
   */
  async verify(flow: FlowRecord | null, request: InboundRequest): Promise<VerifyOutcome> {
    if (!flow) return { ok: false, flow: null, reason: 'unknown flow' };
    const config = flow.webhook as WebhookConfig | undefined;
    if (!config?.enabled) return { ok: false, flow, reason: 'the webhook trigger is disabled' };
    const flowId = flow.flow_id;
    const now = this.deps.clock.now();
    if (config.mode === 'bearer') {
      const header = request.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) return { ok: false, flow, reason: 'bearer token missing' };
      if (!config.token_sealed || !safeEqual(match[1]!, this.open(flowId, config.token_sealed)))
        return { ok: false, flow, reason: 'bearer token does not match' };
      return { ok: true, flow, config, eventId: null };
    }
    const secrets = this.active(config, now).map((s) => ({ id: s.id, value: this.open(flowId, s.sealed), expires_at: s.expires_at }));
    if (secrets.length === 0) return { ok: false, flow, reason: 'no active secret' };
    if (config.mode === 'hmac') {
      if (!config.template || !this.usableTemplate(config.template)) return { ok: false, flow, reason: 'no resolvable HMAC template' };
      const result = verifyHmac({ template: config.template, secrets, request, now });
      return result.ok ? { ok: true, flow, config, eventId: result.eventId } : { ok: false, flow, reason: result.reason };
    }
    const verifier = this.deps.verifiers.get(config.mode);
    if (!verifier) return { ok: false, flow, reason: `no verifier for mode '${config.mode}' is loaded` };
    let verdict: VerifierVerdict | boolean;
    try {
      verdict = await verifier.verify({
        rawBody: request.rawBody,
        headers: request.headers,
        query: request.query,
        url: request.url,
        secrets: secrets.map((s) => s.value),
        now,
      });
    } catch (error) {
      // A verifier that throws refuses the request; the sender still sees the one 401.
      return {
        ok: false,
        flow,
        reason: `the ${config.mode} verifier (${this.deps.verifiers.ownerOf(config.mode) ?? 'unknown plugin'}) failed: ${(error as Error).message}`,
      };
    }
    if (verdict === true) return { ok: true, flow, config, eventId: null };
    if (verdict === false) return { ok: false, flow, reason: `the ${config.mode} verifier rejected the request` };
    return verdict.ok
      ? { ok: true, flow, config, eventId: verdict.eventId ?? null }
      : { ok: false, flow, reason: `${config.mode}: ${verdict.reason}` };
  }

  /**
   * Whether a stored template can verify requests. Checked once per template object: a
   * flow read from the trigger cache brings the same object on every request, and the
   * check (a schema validation and a parse of the signed template) showed in the profile.
   */
  private usableTemplate(template: HmacTemplate): boolean {
    let usable = this.checkedTemplates.get(template);
    if (usable === undefined) {
      usable = checkTemplate(template).length === 0;
      this.checkedTemplates.set(template, usable);
    }
    return usable;
  }
  private readonly checkedTemplates = new WeakMap<object, boolean>();

  private active(config: WebhookConfig, now: Date): StoredSecret[] {
    return config.secrets.filter((s) => !s.expires_at || new Date(s.expires_at).getTime() > now.getTime());
  }

  private async require(flowId: number): Promise<{ flow: FlowRecord; config: WebhookConfig }> {
    const { flow, config } = await this.config(flowId);
    if (!config) throw apiError('webhook_not_enabled', { message: `Flow ${flowId} has no webhook trigger` });
    return { flow, config };
  }
}
