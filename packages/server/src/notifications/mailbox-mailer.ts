import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Mail, Mailer } from '../core/dashboard/mailer.js';

/**
 * Development without a mail server: each email is a file in `<data dir>/mailbox/` (readable by
 * its owner only), and the log names the file, never its content, which holds one-time links.
 */
export class MailboxMailer implements Mailer {
  constructor(
    readonly folder: string,
    private readonly from: string,
    private readonly logger?: Pick<Logger, 'info'>,
  ) {}

  async send(mail: Mail): Promise<void> {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    // The time first, so a listing sorts in sending order.
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    const file = join(this.folder, name);
    const content = [`From: ${this.from}`, `To: ${mail.to}`, `Subject: ${mail.subject}`, 'Content-Type: text/plain; charset=utf-8', '', mail.text].join('\n');
    writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
    this.logger?.info({ mail_file: file }, 'email written to the development mailbox (SMTP_URL is not set)');
  }
}
