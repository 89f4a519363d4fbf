/** CSV exports of the active environment: payments, payouts, balance transactions or batch lines, for a period. */
import { useState } from 'preact/hooks';
import { download } from '../../api.js';
import { useApp } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { ErrorMessage, Notice } from '../../components/feedback.js';
import { Field, SelectField, formValues, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { defineTexts, useTexts } from '../../i18n.js';

const texts = defineTexts(
  {
    title: 'Exports',
    intro: 'Un fichier CSV des données de l’environnement actif ({environment}). Les dates sont en UTC ; la date de fin est exclue.',
    kind: 'Données',
    payments: 'Paiements',
    payouts: 'Décaissements',
    'balance-transactions': 'Mouvements de solde',
    'batch-lines': 'Lignes de lots',
    batch: 'Identifiant du lot (facultatif)',
    batch_hint: 'Lignes de lots seulement : un lot, dans l’ordre de ses lignes.',
    format: 'Format',
    semicolon: 'Excel en français (points-virgules)',
    comma: 'CSV standard (virgules)',
    download: 'Télécharger',
    downloaded: 'Fichier {file} téléchargé.',
  },
  {
    title: 'Exports',
    intro: 'A CSV file of the active environment’s data ({environment}). Dates are UTC; the end date is excluded.',
    kind: 'Data',
    payments: 'Payments',
    payouts: 'Payouts',
    'balance-transactions': 'Balance transactions',
    'batch-lines': 'Batch lines',
    batch: 'Batch id (optional)',
    batch_hint: 'Batch lines only: one batch, in the order of its lines.',
    format: 'Format',
    semicolon: 'French Excel (semicolons)',
    comma: 'Standard CSV (commas)',
    download: 'Download',
    downloaded: 'File {file} downloaded.',
  },
);

const kinds = ['payments', 'payouts', 'balance-transactions', 'batch-lines'] as const;
/** RFC 4180 commas by default; the semicolon variant is what a French Excel opens as columns. */
const delimiters = ['comma', 'semicolon'] as const;

export function ExportsPage() {
  const t = useTexts(texts);
  const c = useTexts(commonTexts);
  const app = useApp();
  const [done, setDone] = useState<string | undefined>();
  const [kind, setKind] = useState<(typeof kinds)[number]>('payments');
  const run = useAction(async (values: Record<string, string>) => {
    const chosen = (kinds as readonly string[]).includes(values.kind ?? '') ? values.kind! : 'payments';
    const batch = chosen === 'batch-lines' && values.batch_id ? values.batch_id.trim() : undefined;
    const file = `akwe-${chosen}${batch ? `-${batch}` : ''}-${app.environment}-${values.from || 'start'}-${values.to || 'now'}.csv`;
    setDone(undefined);
    const delimiter = values.delimiter === 'comma' ? 'comma' : 'semicolon';
    await download(`/exports/${chosen}.csv`, { from: values.from, to: values.to, batch_id: batch, delimiter }, file);
    setDone(file);
  });
  return (
    <Page title={t('title')}>
      <p>{t('intro', { environment: app.environment })}</p>
      <form onSubmit={(event) => void run.run(formValues(event))}>
        <SelectField label={t('kind')} name="kind" value={kind} onChange={(event) => setKind((event.currentTarget as HTMLSelectElement).value as (typeof kinds)[number])}>
          {kinds.map((k) => (
            <option value={k}>{t(k)}</option>
          ))}
        </SelectField>
        <div class="inline-form">
          <Field label={c('from')} name="from" type="date" error={run.fieldError('from')} />
          <Field label={c('to')} name="to" type="date" error={run.fieldError('to')} />
        </div>
        <SelectField label={t('format')} name="delimiter">
          {delimiters.map((d) => (
            <option value={d}>{t(d)}</option>
          ))}
        </SelectField>
        {kind === 'batch-lines' ? <Field label={t('batch')} name="batch_id" hint={t('batch_hint')} error={run.fieldError('batch_id')} /> : null}
        <button type="submit" class="button" disabled={run.busy}>
          {t('download')}
        </button>
      </form>
      {done ? <Notice kind="success">{t('downloaded', { file: done })}</Notice> : null}
      <ErrorMessage error={run.error} />
    </Page>
  );
}
