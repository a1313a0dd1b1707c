/**
 * Handler defaults: a site setting per handler that new flow steps start from. When a
 * flow step is given a handler (a new flow's flow_config, PUT .../handler, an import),
 * the handler's defaults are laid under the given settings, key by key: what is given
 * wins. Stored in the settings collection, one document per handler (a handler slug may
 * hold '-', which store field paths do not take), secret-named values sealed like a
 * flow's and masked in every answer.
 */
import type { ValidateFunction } from 'ajv';
import type { Clock } from '../kernel/clock.js';
import type { HandlerCatalogue } from '../../sdk/contract/handler-catalogue.js';
import { compileShared, createAjv, describeErrors } from '../kernel/validator.js';
import type { DocumentStore } from '../store/port.js';
import { HandlerSecrets, refuseUrlCredentials } from './handler-secrets.js';
import { apiError } from '../errors/catalogue.js';

type Settings = Record<string, unknown>;

interface DefaultsDoc extends Record<string, unknown> {
  _id: string;
  kind: 'handler_defaults';
  handler_slug: string;
  /** Sealed where secret-named. */
  settings: Settings;
  updated_at: Date;
}

/** How a write combines with what is stored: `merge` keeps unnamed keys (null removes one); `replace` keeps only what is given. */
export type HandlerDefaultsMode = 'merge' | 'replace';

const docId = (slug: string) => `handler_defaults:${slug}`;

export class HandlerDefaults {
  // No useDefaults: what is stored is what the operator gave, not the schema's own defaults.
  private readonly ajv = createAjv({ useDefaults: false });
  private readonly validators = new WeakMap<object, ValidateFunction>();

  constructor(
    private readonly store: DocumentStore,
    private readonly catalogue: HandlerCatalogue,
    private readonly secrets: HandlerSecrets,
    private readonly clock: Clock,
  ) {}

  private get collection() {
    return this.store.collection<DefaultsDoc>('settings');
  }

  private handler(slug: string) {
    const handler = this.catalogue.handler(slug);
    if (!handler) throw apiError('handler_not_found', { message: `No handler '${slug}' is registered`, status: 404 });
    return handler;
  }

  /** One handler's defaults, opened: what a new flow step's settings are laid over. */
  async opened(slug: string): Promise<Settings> {
    const doc = await this.collection.findOne({ _id: docId(slug) });
    return doc ? this.secrets.open(doc.settings) : {};
  }

  /** Every handler's defaults, opened (for an import, which checks its flows in one pass). */
  async openedAll(): Promise<Record<string, Settings>> {
    const docs = await this.collection.find({ kind: 'handler_defaults' });
    return Object.fromEntries(docs.map((d) => [d.handler_slug, this.secrets.open(d.settings)]));
  }

  /**
   * What reads answer, secrets masked: one handler's defaults (`{}` when none; 404 for an
   * unknown handler), or every handler that has some, keyed by slug.
   */
  async view(slug?: string): Promise<Record<string, Settings>> {
    if (slug !== undefined) {
      this.handler(slug);
      const doc = await this.collection.findOne({ _id: docId(slug) });
      return { [slug]: HandlerSecrets.mask(doc?.settings ?? {}) };
    }
    const known = new Set(this.catalogue.handlers().map((h) => h.slug));
    const docs = await this.collection.find({ kind: 'handler_defaults' }, { sort: { handler_slug: 1 } });
    // Defaults of a handler whose plugin is no longer loaded stay stored but are not shown.
    return Object.fromEntries(docs.filter((d) => known.has(d.handler_slug)).map((d) => [d.handler_slug, HandlerSecrets.mask(d.settings)]));
  }

  /**
   * Saves a handler's defaults and answers them masked. Checked against the handler's
   * settings schema except for required fields (defaults may be partial: a feed URL is
   * per flow). A masked value (what a read showed) keeps the stored secret; `{}` with
   * `replace` (or every key nulled) removes the handler's defaults.
   */
  async set(slug: string, given: Settings, mode: HandlerDefaultsMode): Promise<{ settings: Settings; fields: string[] }> {
    const handler = this.handler(slug);
    const stored = await this.opened(slug);
    const kept = this.secrets.keepMasked(given, stored);
    const next: Settings = mode === 'replace' ? {} : { ...stored };
    for (const [key, value] of Object.entries(kept)) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    refuseUrlCredentials(slug, next, handler.settings, Boolean(handler.auth));
    if (handler.settings) {
      let validate = this.validators.get(handler.settings);
      if (!validate) {
        validate = compileShared(this.ajv, handler.settings as object);
        this.validators.set(handler.settings, validate);
      }
      if (!validate(structuredClone(next))) {
        const params: Record<string, string> = {};
        for (const issue of describeErrors(validate.errors)) if (!issue.missing) params[issue.field || 'settings'] = issue.message;
        if (Object.keys(params).length)
          throw apiError('rest_invalid_param', {
            message: `Invalid defaults for handler '${slug}': ${Object.values(params).join('; ')}`,
            data: { params },
          });
      }
    }
    if (Object.keys(next).length === 0) await this.collection.deleteOne({ _id: docId(slug) });
    else {
      await this.collection.updateOne(
        { _id: docId(slug) },
        { $set: { kind: 'handler_defaults', handler_slug: slug, settings: this.secrets.seal(next), updated_at: this.clock.now() } },
        { upsert: true },
      );
    }
    return { settings: HandlerSecrets.mask(this.secrets.seal(next)), fields: Object.keys(given).sort() };
  }
}
