import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Mailer } from '../core/dashboard/mailer.js';
import { MailboxMailer } from './mailbox-mailer.js';
import { SmtpMailer } from './smtp-mailer.js';

/** SMTP when SMTP_URL is set; otherwise the development mailbox folder, so `npm start` needs no mail server. */
export function configuredMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, logger?: Logger): Mailer {
  if (config.smtpUrl !== undefined) return new SmtpMailer(config.smtpUrl, config.mailFrom);
  return new MailboxMailer(join(config.dataDir, 'mailbox'), config.mailFrom, logger);
}
