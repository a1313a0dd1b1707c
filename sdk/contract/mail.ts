/**
 * Outgoing e-mail: one plain-text message through an SMTP server. The caller names the
 * server and account (each plugin keeps its own SMTP settings and seals its own password);
 * the host owns the transport (nodemailer, loaded when the first mail goes out).
 */
import { createServiceRef } from '../../core/kernel/service-ref.js';

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

export interface MailApi {
  /** Resolves once the server took the message; throws what the server or the connection said. */
  send(message: MailMessage, transport: SmtpTransport): Promise<{ message_id: string }>;
}

/** `deps: { mail: services.mail }`: provided by the host. */
export const mailService = createServiceRef<MailApi, 'root'>({ id: 'mail', scope: 'root' });
