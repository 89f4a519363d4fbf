import nodemailer, { type Transporter } from 'nodemailer';
import type { Mail, Mailer } from '../core/dashboard/mailer.js';

/** Emails through the SMTP server of SMTP_URL (smtp:// or smtps://user:password@host:port). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }
}
