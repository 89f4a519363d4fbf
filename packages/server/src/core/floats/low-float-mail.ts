import type { Mail } from '../dashboard/mailer.js';

/** What a low float's alert says to one platform administrator: French first, then English (the back office's order). */
export function lowFloatMail(to: string, alert: { routeLabel: string; balance: string; threshold: string; readAt: string; floatsPage: string }): Mail {
  return {
    to,
    subject: `Float bas / Low float: ${alert.routeLabel}`,
    text:
      `Le float de la route ${alert.routeLabel} est passé sous son seuil : ${alert.balance} (seuil ${alert.threshold}), lu le ${alert.readAt}.\n` +
      `Les nouveaux paiements sortants passent par une autre route de l’opérateur quand il en a une. Réapprovisionnez le compte chez le fournisseur.\n` +
      `Floats : ${alert.floatsPage}\n\n` +
      `The float of the route ${alert.routeLabel} fell under its threshold: ${alert.balance} (threshold ${alert.threshold}), read at ${alert.readAt}.\n` +
      `New payouts go through another route of the operator when it has one. Top the account up at the provider.\n` +
      `Floats: ${alert.floatsPage}\n`,
  };
}

/** Centimes as the provider's major units with the currency, e.g. `12 500 XOF`. */
export function formatFloat(amountMinor: number, currency: string): string {
  const major = amountMinor / 100;
  const text = Number.isInteger(major) ? String(major) : major.toFixed(2);
  return `${text.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} ${currency}`;
}
