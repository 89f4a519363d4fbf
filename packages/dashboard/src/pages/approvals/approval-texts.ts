import { defineTexts } from '../../i18n.js';

export const approvalTexts = defineTexts(
  {
    title: 'Approbations',
    policy_title: 'Seuil d’approbation',
    policy_on:
      'En production, tout décaissement, lot, transfert, reversement ou remboursement au-delà de {amount} soumis depuis le tableau de bord doit être approuvé par un second membre de l’équipe avant de partir ; une demande non approuvée expire après 72 heures.',
    policy_off: 'Aucun seuil : les sorties d’argent partent dès qu’elles sont soumises.',
    policy_test: 'En test, rien n’attend d’approbation.',
    threshold: 'Seuil en FCFA',
    threshold_hint: 'Au-delà de ce montant (0 : tous les décaissements).',
    save_policy: 'Enregistrer le seuil',
    turn_off: 'Désactiver',
    policy_saved: 'Seuil enregistré.',
    list_title: 'Demandes',
    filter_status: 'Afficher',
    all: 'Toutes',
    pending: 'En attente',
    executed: 'Exécutées',
    rejected: 'Refusées',
    failed: 'En échec',
    expired: 'Expirées',
    what: 'Objet',
    amount: 'Montant',
    maker: 'Soumis par',
    created: 'Soumis le',
    status: 'Statut',
    actions: 'Décision',
    payout_to: 'Décaissement {reference} vers {phone} ({operator})',
    batch: 'Lot de paiements',
    transfer_to: 'Transfert {reference} vers le marchand {receiver}',
    settlement_to: 'Reversement vers le compte {account}',
    refund_of: 'Remboursement du paiement {payment}',
    expires: 'Expire le {at}',
    you: 'vous',
    own_request: 'Votre demande : un autre membre doit l’approuver.',
    approve: 'Approuver',
    approve_question: 'Approuver et exécuter maintenant : {what}, {amount} ?',
    reject: 'Refuser',
    reason: 'Motif du refus',
    reject_question: 'Refuser cette demande ? Rien ne sera payé.',
    approved_executed: 'Demande approuvée et exécutée.',
    approved_failed: 'Demande approuvée, mais l’exécution a été refusée : {message}',
    rejected_done: 'Demande refusée.',
    error_of: 'Refusée à l’exécution : {message}',
    reason_of: 'Motif : {reason}',
    none: 'Aucune demande.',
    more: 'Plus anciennes',
    new_payout: 'Nouveau décaissement',
  },
  {
    title: 'Approvals',
    policy_title: 'Approval threshold',
    policy_on:
      'In live, every payout, batch, transfer, settlement or refund above {amount} submitted from the dashboard must be approved by a second team member before it goes out; a request nobody approves expires after 72 hours.',
    policy_off: 'No threshold: money goes out as soon as it is submitted.',
    policy_test: 'In test, nothing waits for approval.',
    threshold: 'Threshold in FCFA',
    threshold_hint: 'Above this amount (0: every payout).',
    save_policy: 'Save the threshold',
    turn_off: 'Turn off',
    policy_saved: 'Threshold saved.',
    list_title: 'Requests',
    filter_status: 'Show',
    all: 'All',
    pending: 'Pending',
    executed: 'Executed',
    rejected: 'Rejected',
    failed: 'Failed',
    expired: 'Expired',
    what: 'What',
    amount: 'Amount',
    maker: 'Submitted by',
    created: 'Submitted',
    status: 'Status',
    actions: 'Decision',
    payout_to: 'Payout {reference} to {phone} ({operator})',
    batch: 'Bulk batch',
    transfer_to: 'Transfer {reference} to merchant {receiver}',
    settlement_to: 'Settlement to account {account}',
    refund_of: 'Refund of payment {payment}',
    expires: 'Expires {at}',
    you: 'you',
    own_request: 'Your request: another member must approve it.',
    approve: 'Approve',
    approve_question: 'Approve and execute now: {what}, {amount}?',
    reject: 'Reject',
    reason: 'Reason for rejecting',
    reject_question: 'Reject this request? Nothing will be paid.',
    approved_executed: 'Request approved and executed.',
    approved_failed: 'Request approved, but its execution was refused: {message}',
    rejected_done: 'Request rejected.',
    error_of: 'Refused at execution: {message}',
    reason_of: 'Reason: {reason}',
    none: 'No requests.',
    more: 'Older',
    new_payout: 'New payout',
  },
);

export interface Approval {
  id: string;
  kind: 'payout' | 'batch' | 'transfer' | 'settlement' | 'refund';
  status: 'pending' | 'approved' | 'executed' | 'rejected' | 'failed' | 'expired';
  approval_required: boolean;
  amount_minor: number;
  currency: string;
  request: Record<string, unknown>;
  maker_id: string;
  decided_by: string | null;
  reason: string | null;
  result: { id: string; status: string } | null;
  error: { code: string; message: string } | null;
  created_at: string;
  expires_at: string | null;
}

export interface ApprovalList {
  data: Approval[];
  has_more: boolean;
  next_cursor: string | null;
}
