/** The billing plugin's settings (config `pluginSettings.billing`), validated at boot. */
import { smtpSettingsProperties, type JsonSchema, type SmtpSettings } from '../../sdk/index.js';

export interface BillingSettings extends SmtpSettings {
  /** Secrets given in the config file (plain); a sealed value saved with PUT /settings or an env variable wins. */
  internal_key: string;
  provisioner_token: string;
  stripe_webhook_secret: string;
  stripe_api_key: string;
  /** Seconds a Stripe-Signature timestamp may be old (constructEvent's tolerance). */
  stripe_tolerance_seconds: number;
  /** The Stripe API's address, for API calls (tests point it at a fake on 127.0.0.1). */
  stripe_api_host: string;
  stripe_api_port: number;
  stripe_api_protocol: 'https' | 'http';
  /** Days between a subscription's cancellation and the deletion of its site. */
  grace_period_days: number;
  /** A directory whose `<template>.txt` files replace the built-in e-mail templates. */
  templates_dir: string;
  /** How often the background jobs look for due mail and due deletions (an Agenda interval). */
  sweep_interval: string;
  /** First retry delay of a failed send; doubled per attempt up to `mail_retry_max_seconds`. */
  mail_retry_seconds: number;
  mail_retry_max_seconds: number;
  /** The site's IANA time zone and language: dates in e-mail are written for them. */
  timezone: string;
  locale: string;
}

const secret = { type: 'string', maxLength: 4096, default: '' } as const;

export const settingsSchema: JsonSchema = {
  type: 'object',
  properties: {
    internal_key: secret,
    provisioner_token: secret,
    stripe_webhook_secret: secret,
    stripe_api_key: secret,
    stripe_tolerance_seconds: { type: 'integer', minimum: 1, maximum: 3600, default: 300 },
    stripe_api_host: { type: 'string', minLength: 1, maxLength: 255, default: 'api.stripe.com' },
    stripe_api_port: { type: 'integer', minimum: 1, maximum: 65535, default: 443 },
    stripe_api_protocol: { enum: ['https', 'http'], default: 'https' },
    grace_period_days: { type: 'integer', minimum: 0, maximum: 365, default: 14 },
    ...smtpSettingsProperties('billing@localhost'),
    templates_dir: { type: 'string', maxLength: 1000, default: '' },
    sweep_interval: { type: 'string', minLength: 1, maxLength: 100, default: '1 minute' },
    mail_retry_seconds: { type: 'integer', minimum: 1, maximum: 86_400, default: 60 },
    mail_retry_max_seconds: { type: 'integer', minimum: 1, maximum: 86_400, default: 3600 },
    timezone: { type: 'string', minLength: 1, maxLength: 64, default: 'UTC' },
    locale: { type: 'string', minLength: 2, maxLength: 35, default: 'en-GB' },
  },
};
