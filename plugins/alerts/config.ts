/**
 * The plugin's own config (`pluginSettings.alerts`): the SMTP server alert e-mail goes
 * through, set by the operator like billing's. The password may come from the environment
 * (FLOWHOST_ALERTS_SMTP_PASSWORD) instead of the config file.
 */
import { smtpSettingsProperties, smtpTransportOf, type JsonSchema, type SmtpSettings, type SmtpTransport } from '../../sdk/index.js';

export type AlertsConfig = SmtpSettings;

export const configSchema: JsonSchema = {
  type: 'object',
  properties: smtpSettingsProperties('alerts@localhost'),
};

export function smtpOf(config: AlertsConfig, env: Readonly<Record<string, string | undefined>>): SmtpTransport {
  return smtpTransportOf(config, env.FLOWHOST_ALERTS_SMTP_PASSWORD || config.smtp_password);
}
