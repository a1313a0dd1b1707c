/**
 * Outgoing e-mail: one plain-text message through an SMTP server. The caller names the
 * server and account (each plugin keeps its own SMTP settings and seals its own password);
 * the host owns the transport (nodemailer, loaded when the first mail goes out).
 */
import { createServiceRef } from '../kernel/service-ref.js';
import type { JsonSchema } from '../kernel/json-schema.js';

export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
}

/** An SMTP server and the sender's account on it. */
export interface SmtpTransport {
  host: string;
  port: number;
  /** TLS from the start (port 465); false: STARTTLS when the server offers it. */
  secure: boolean;
  /** Empty: no authentication. */
  user?: string;
  password?: string;
  /** The From address. */
  from: string;
}

/**
 * The SMTP settings a plugin keeps for its own mail (billing's and alerts' use the same names,
 * bounds and defaults): declare them with smtpSettingsProperties, send with smtpTransportOf.
 */
export interface SmtpSettings {
  smtp_host: string;
  smtp_port: number;
  smtp_secure: boolean;
  smtp_user: string;
  smtp_password: string;
  mail_from: string;
}

/** The JSON Schema properties of SmtpSettings; `from` is the default From address. */
export function smtpSettingsProperties(from: string): Record<keyof SmtpSettings, JsonSchema> {
  return {
    smtp_host: { type: 'string', maxLength: 255, default: '' },
    smtp_port: { type: 'integer', minimum: 1, maximum: 65535, default: 587 },
    smtp_secure: { type: 'boolean', default: false },
    smtp_user: { type: 'string', maxLength: 320, default: '' },
    smtp_password: { type: 'string', maxLength: 4096, default: '' },
    mail_from: { type: 'string', maxLength: 320, default: from },
  };
}

/** The transport mail.send takes; `password` when it is kept elsewhere (sealed, or in the environment). */
export function smtpTransportOf(settings: SmtpSettings, password: string = settings.smtp_password): SmtpTransport {
  return {
    host: settings.smtp_host,
    port: settings.smtp_port,
    secure: settings.smtp_secure,
    user: settings.smtp_user,
    password,
    from: settings.mail_from,
  };
}

export interface MailApi {
  /** Resolves once the server took the message; throws what the server or the connection said. */
  send(message: MailMessage, transport: SmtpTransport): Promise<{ message_id: string }>;
}

/** `deps: { mail: services.mail }`: provided by the host. */
export const mailService = createServiceRef<MailApi, 'root'>({ id: 'mail', scope: 'root' });
