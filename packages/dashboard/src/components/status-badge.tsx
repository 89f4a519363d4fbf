import { defineTexts, useTexts } from '../i18n.js';

const statusTexts = defineTexts(
  {
    pending: 'En attente',
    awaiting_otp: 'Code OTP attendu',
    awaiting_payment: 'Paiement attendu',
    processing: 'En cours',
    succeeded: 'Réussi',
    completed: 'Terminé',
    failed: 'Échoué',
    cancelled: 'Annulé',
    canceled: 'Annulé',
    expired: 'Expiré',
    refunded: 'Remboursé',
    partially_refunded: 'Remboursé en partie',
    requires_confirmation: 'À confirmer',
    in_transit: 'En transit',
    paid: 'Payé',
    sent: 'Envoyé',
    validated: 'Validé',
    rejected: 'Refusé',
    submitted: 'Soumis',
    active: 'Actif',
    suspended: 'Suspendu',
    approved: 'Approuvé',
    executed: 'Exécuté',
    other: '{status}',
  },
  {
    pending: 'Pending',
    awaiting_otp: 'Awaiting OTP',
    awaiting_payment: 'Awaiting payment',
    processing: 'Processing',
    succeeded: 'Succeeded',
    completed: 'Completed',
    failed: 'Failed',
    cancelled: 'Cancelled',
    canceled: 'Cancelled',
    expired: 'Expired',
    refunded: 'Refunded',
    partially_refunded: 'Partly refunded',
    requires_confirmation: 'Needs confirmation',
    in_transit: 'In transit',
    paid: 'Paid',
    sent: 'Sent',
    validated: 'Validated',
    rejected: 'Rejected',
    submitted: 'Submitted',
    active: 'Active',
    suspended: 'Suspended',
    approved: 'Approved',
    executed: 'Executed',
    other: '{status}',
  },
);

type Known = keyof (typeof statusTexts)['fr'];
const tone = (status: string) =>
  /succeeded|completed|paid|sent|validated|active|approved|executed/.test(status) ? 'good' : /fail|cancel|expired|rejected|suspended/.test(status) ? 'bad' : 'neutral';

/** A status in words, in the page's language (payouts' statuses are upper case: the same words). */
export function useStatusLabel(): (status: string) => string {
  const t = useTexts(statusTexts);
  return (status) => {
    const lower = status.toLowerCase();
    return lower in statusTexts.fr ? t(lower as Known) : t('other', { status });
  };
}

/** A status in words and colour (the colour is never the only sign: the word is there). */
export function StatusBadge({ status }: { status: string | undefined }) {
  const label = useStatusLabel();
  if (!status) return null;
  return <span class={`badge badge-${tone(status.toLowerCase())}`}>{label(status)}</span>;
}
