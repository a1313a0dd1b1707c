/** Site settings: what an operator tunes, each with a default. */
export interface SiteSettings {
  problem_flow_threshold: number;
  flows_per_page: number;
  jobs_per_page: number;
  default_provider: string;
  default_model: string;
  max_turns: number;
  log_retention_days: number;
  job_retention_days: number;
  /**
   * Processed-item records are the duplicate memory: a record older than this many days is
   * forgotten, and its item may be fetched and published again. 0 (the default) never forgets.
   */
  forget_processed_items_after_days: number;
}

export const settingsDefaults: SiteSettings = {
  problem_flow_threshold: 3,
  flows_per_page: 20,
  jobs_per_page: 50,
  default_provider: '',
  default_model: '',
  // The spec's chat turn limit (document 02, Limits): the one setting chat reads.
  max_turns: 8,
  log_retention_days: 30,
  job_retention_days: 0,
  forget_processed_items_after_days: 0,
};

const properties = {
  problem_flow_threshold: { type: 'integer', minimum: 1, maximum: 1000 },
  flows_per_page: { type: 'integer', minimum: 1, maximum: 100 },
  jobs_per_page: { type: 'integer', minimum: 1, maximum: 500 },
  default_provider: { type: 'string', maxLength: 100 },
  default_model: { type: 'string', maxLength: 200 },
  max_turns: { type: 'integer', minimum: 1, maximum: 100 },
  log_retention_days: { type: 'integer', minimum: 0, maximum: 3650 },
  job_retention_days: { type: 'integer', minimum: 0, maximum: 3650 },
  forget_processed_items_after_days: { type: 'integer', minimum: 0, maximum: 3650 },
} as const;

/** AI provider API keys by provider slug: write-only (sealed at rest, masked in answers). */
const providerKeys = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' },
  additionalProperties: { type: 'string', maxLength: 4096 },
} as const;

/** A partial update: only known keys, each validated; at least one. */
export const settingsPatchBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { ...properties, ai_provider_keys: providerKeys },
} as const;

/** The settings as answered: the site settings and the masked provider keys. */
export const settingsView = {
  type: 'object',
  required: [...Object.keys(properties), 'ai_provider_keys'],
  properties: { ...properties, ai_provider_keys: { type: 'object', additionalProperties: { type: 'string' } } },
  additionalProperties: false,
} as const;

export const settingsDefaultsView = {
  type: 'object',
  required: Object.keys(properties),
  properties,
  additionalProperties: false,
} as const;
