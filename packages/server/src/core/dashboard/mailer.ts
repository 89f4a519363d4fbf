/** One email to one person; plain text (links are written out in full). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Where the dashboard's emails go (sign-up verification, invitations, password resets): SMTP when
 * SMTP_URL is set, otherwise a mailbox folder in the data folder (src/notifications/).
 */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}
