/**
 * The host's mail service (sdk/contract/mail.ts): one SMTP connection per message, with
 * bounded waits, closed after the send. Moved here from the billing plugin so any plugin
 * can send e-mail through the public SDK.
 */
import type { MailApi, MailMessage, SmtpTransport } from '../../sdk/contract/mail.js';

// nodemailer loads when the first mail goes out, not at start-up.
let nodemailerModule: Promise<typeof import('nodemailer')> | null = null;
const loadNodemailer = async () => (await (nodemailerModule ??= import('nodemailer'))).default;

export const smtpMail: MailApi = {
  async send(message: MailMessage, smtp: SmtpTransport) {
    if (!smtp.host) throw new Error('no SMTP server is configured (smtp_host)');
    const nodemailer = await loadNodemailer();
    const transport = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    try {
      const info = await transport.sendMail({ from: smtp.from, to: message.to, subject: message.subject, text: message.text });
      return { message_id: String(info.messageId ?? '') };
    } finally {
      transport.close();
    }
  },
};
