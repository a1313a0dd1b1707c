/**
 * The plugin's own config (`pluginSettings.alerts`): the SMTP server alert e-mail goes
 * through, set by the operator like billing's. The password may come from the environment
 * (FLOWHOST_ALERTS_SMTP_PASSWORD) instead of the config file.
 */
import type { JsonSchema, SmtpTransport } from '../../sdk/index.js';

export interface AlertsConfig {
  smtp_host: string;
  smtp_port: number;
  smtp_secure: boolean;
  smtp_user: string;
  smtp_password: string;
  mail_from: string;
}

export const configSchema: JsonSchema = {
  type: 'object',
  properties: {
    smtp_host: { type: 'string', maxLength: 255, default: '' },
    smtp_port: { type: 'integer', minimum: 1, maximum: 65535, default: 587 },
    smtp_secure: { type: 'boolean', default: false },
    smtp_user: { type: 'string', maxLength: 320, default: '' },
    smtp_password: { type: 'string', maxLength: 4096, default: '' },
    mail_from: { type: 'string', maxLength: 320, default: 'alerts@localhost' },
  },
};

export function smtpOf(config: AlertsConfig, env: Readonly<Record<string, string | undefined>>): SmtpTransport {
  return {
    host: config.smtp_host,
    port: config.smtp_port,
    secure: config.smtp_secure,
    user: config.smtp_user,
    password: env.FLOWHOST_ALERTS_SMTP_PASSWORD || config.smtp_password,
    from: config.mail_from,
  };
}
