import { definePreset, type PresetDefinition } from '../../sdk/index.js';

/*
 * Full HMAC templates of well-known senders. Selecting one copies the template onto the
 * flow, so editing a preset here never changes flows already set up with it.
 */

const DEFAULT_MAX_BODY_BYTES = 1048576;

export const github = definePreset({
  slug: 'github',
  label: 'GitHub (X-Hub-Signature-256)',
  template: {
    mode: 'hmac',
    algo: 'sha256',
    signed_template: '{body}',
    signature_source: { header: 'X-Hub-Signature-256', extract: { kind: 'prefix', key: 'sha256=' }, encoding: 'hex' },
    // GitHub signs no timestamp: no replay window is possible. The delivery id is informative.
    id_source: { header: 'X-GitHub-Delivery', extract: { kind: 'raw' } },
    tolerance_seconds: 0,
    max_body_bytes: DEFAULT_MAX_BODY_BYTES,
  },
});

export const stripe = definePreset({
  slug: 'stripe',
  label: 'Stripe (Stripe-Signature)',
  template: {
    mode: 'hmac',
    algo: 'sha256',
    signed_template: '{timestamp}.{body}',
    // `t=<unix>,v1=<hex>[,v1=<hex>...]`: every v1 entry is a candidate (rolled secrets).
    signature_source: {
      header: 'Stripe-Signature',
      extract: { kind: 'kv_pairs', key: 'v1', separator: ',', pair_separator: '=' },
      encoding: 'hex',
    },
    timestamp_source: {
      header: 'Stripe-Signature',
      extract: { kind: 'kv_pairs', key: 't', separator: ',', pair_separator: '=' },
      format: 'unix',
    },
    tolerance_seconds: 300,
    max_body_bytes: DEFAULT_MAX_BODY_BYTES,
  },
});

export const shopify = definePreset({
  slug: 'shopify',
  label: 'Shopify (X-Shopify-Hmac-Sha256)',
  template: {
    mode: 'hmac',
    algo: 'sha256',
    signed_template: '{body}',
    signature_source: { header: 'X-Shopify-Hmac-Sha256', extract: { kind: 'raw' }, encoding: 'base64' },
    id_source: { header: 'X-Shopify-Webhook-Id', extract: { kind: 'raw' } },
    tolerance_seconds: 0,
    max_body_bytes: DEFAULT_MAX_BODY_BYTES,
  },
});

export const slack = definePreset({
  slug: 'slack',
  label: 'Slack (X-Slack-Signature)',
  template: {
    mode: 'hmac',
    algo: 'sha256',
    signed_template: 'v0:{timestamp}:{body}',
    signature_source: { header: 'X-Slack-Signature', extract: { kind: 'prefix', key: 'v0=' }, encoding: 'hex' },
    timestamp_source: { header: 'X-Slack-Request-Timestamp', extract: { kind: 'raw' }, format: 'unix' },
    tolerance_seconds: 300,
    max_body_bytes: DEFAULT_MAX_BODY_BYTES,
  },
});

export const standardWebhooks = definePreset({
  slug: 'standard-webhooks',
  label: 'Standard Webhooks (webhook-signature)',
  template: {
    mode: 'hmac',
    algo: 'sha256',
    signed_template: '{id}.{timestamp}.{body}',
    // Several space-separated `v1,<base64>` entries may be sent; any one may match.
    signature_source: { header: 'webhook-signature', extract: { kind: 'prefix', key: 'v1,' }, encoding: 'base64', entry_separator: ' ' },
    timestamp_source: { header: 'webhook-timestamp', extract: { kind: 'raw' }, format: 'unix' },
    id_source: { header: 'webhook-id', extract: { kind: 'raw' } },
    // Secrets are `whsec_` + base64 of the key bytes.
    secret_encoding: { encoding: 'base64', prefix: 'whsec_' },
    tolerance_seconds: 300,
    max_body_bytes: DEFAULT_MAX_BODY_BYTES,
  },
});

export const presets: PresetDefinition[] = [github, stripe, shopify, slack, standardWebhooks];
