import { defineTexts } from '../../i18n.js';

export const bulkTexts = defineTexts(
  {
    title: 'Lots de décaissement',
    template: 'Télécharger le modèle CSV',
    upload_title: 'Importer un fichier',
    batch_name: 'Nom du lot',
    default_name: 'Lot du {date}',
    drop_here: 'Déposez ici votre fichier CSV, ou choisissez-le :',
    file: 'Fichier CSV',
    file_hint: 'Colonnes du modèle ; séparateur point-virgule ou virgule ; 10 000 lignes au plus.',
    uploading: 'Vérification du fichier…',
    problems: '{count} problème(s) dans {name} : rien n’a été importé. Corrigez le fichier et déposez-le de nouveau.',
    problems_caption: 'Lignes à corriger',
    row: 'Ligne',
    field: 'Colonne',
    problem: 'Problème',
    whole_file: 'Fichier',
    batches: 'Lots',
    name: 'Nom',
    lines: 'Lignes',
    total: 'Total',
    fees: 'Frais',
    validated: 'Soumis le',
    progress: 'Avancement',
    progress_text: '{done} ligne(s) traitée(s) sur {total} : {completed} payée(s), {failed} en échec.',
    submit: 'Soumettre le lot',
    submit_question: 'Payer {count} ligne(s) pour {total} (plus {fees} de frais) ?',
    submitted_pending: 'Le lot attend l’approbation d’un autre membre de l’équipe (au-delà du seuil d’approbation).',
    see_approvals: 'Voir les approbations',
    submitted_executed: 'Lot soumis : les paiements partent.',
    not_allowed: 'Votre rôle ne permet pas de soumettre un lot.',
    items: 'Lignes du lot',
    beneficiary: 'Bénéficiaire',
    failure: 'Motif d’échec',
    draft: 'Brouillon',
    partially_completed: 'Terminé en partie',
  },
  {
    title: 'Bulk batches',
    template: 'Download the CSV template',
    upload_title: 'Import a file',
    batch_name: 'Batch name',
    default_name: 'Batch of {date}',
    drop_here: 'Drop your CSV file here, or choose it:',
    file: 'CSV file',
    file_hint: 'The template’s columns; semicolons or commas; at most 10,000 lines.',
    uploading: 'Checking the file…',
    problems: '{count} problem(s) in {name}: nothing was imported. Fix the file and drop it again.',
    problems_caption: 'Lines to fix',
    row: 'Line',
    field: 'Column',
    problem: 'Problem',
    whole_file: 'File',
    batches: 'Batches',
    name: 'Name',
    lines: 'Lines',
    total: 'Total',
    fees: 'Fees',
    validated: 'Submitted',
    progress: 'Progress',
    progress_text: '{done} of {total} line(s) done: {completed} paid, {failed} failed.',
    submit: 'Submit the batch',
    submit_question: 'Pay {count} line(s) for {total} (plus {fees} in fees)?',
    submitted_pending: 'The batch waits for another team member’s approval (above the approval threshold).',
    see_approvals: 'See approvals',
    submitted_executed: 'Batch submitted: the payouts are going out.',
    not_allowed: 'Your role does not allow submitting a batch.',
    items: 'Lines of the batch',
    beneficiary: 'Beneficiary',
    failure: 'Failure reason',
    draft: 'Draft',
    partially_completed: 'Partly completed',
  },
);

export interface BatchTotals {
  count: number;
  amount_minor: number;
  fee_minor: number;
}

export interface Batch {
  id: string;
  name: string;
  status: string;
  currency: string;
  item_count: number;
  total_amount_minor: number;
  total_fee_minor: number;
  validated_at: string | null;
  completed_at: string | null;
  created_at: string;
  totals?: Record<string, BatchTotals>;
}

export interface BatchItem {
  id: string;
  row: number;
  beneficiary_name: string;
  phone: string;
  amount: number;
  currency: string;
  reference: string;
  status: string;
  failure_code: string | null;
}
