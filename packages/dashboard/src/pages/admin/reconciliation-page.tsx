/**
 * The back office's reconciliation (docs/operations.md "Reconciliation"): import a provider's
 * statement, see each run's summary (matched, each kind of mismatch, totals on both sides), and
 * download its report. The discrepancies themselves are listed on the operators page.
 */
import { useState } from 'preact/hooks';
import { adminApi, ApiError, download, type ApiErrorDetail } from '../../api.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { Field, SelectField, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { useApi } from '../../components/use-api.js';
import { formatDay, formatMinor } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { reconciliationTexts } from './reconciliation-texts.js';

const providers = ['pawapay', 'wave', 'mtn-momo', 'orange-money', 'fedapay'] as const;

export interface Run {
  id: string;
  route: string;
  line_count: number;
  period_start: string;
  period_end: string;
  matched_count: number;
  missing_at_provider_count: number;
  missing_at_akwe_count: number;
  amounts_differ_count: number;
  status_differs_count: number;
  provider_collected_minor: number;
  provider_paid_out_minor: number;
  akwe_collected_minor: number;
  akwe_paid_out_minor: number;
}

const mismatchesOf = (run: Run) => run.missing_at_provider_count + run.missing_at_akwe_count + run.amounts_differ_count + run.status_differs_count;
const lastDayOf = (run: Run) => new Date(Date.parse(run.period_end) - 86_400_000).toISOString();

export function ReconciliationPage() {
  const t = useTexts(reconciliationTexts);
  const language = useLanguage();
  const runs = useApi(() => adminApi<{ data: Run[] }>('/reconciliation-runs', { query: { limit: 50 } }));
  const [outcome, setOutcome] = useState<string | undefined>();
  const [problems, setProblems] = useState<{ file: string; details: ApiErrorDetail[] } | undefined>();
  const upload = useAction(async (form: HTMLFormElement) => {
    setOutcome(undefined);
    setProblems(undefined);
    const data = new FormData(form);
    const file = data.get('file');
    try {
      const answer = await adminApi<{ run: Run; already_imported: boolean }>('/reconciliation-runs', { method: 'POST', form: data });
      setOutcome(answer.already_imported ? t('already_imported') : t('imported', { matched: answer.run.matched_count, mismatched: mismatchesOf(answer.run) }));
      form.reset();
      runs.reload();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invalid_report' && error.details?.length) {
        setProblems({ file: file instanceof File ? file.name : '', details: error.details });
        return;
      }
      throw error;
    }
  });
  // French Excel splits on semicolons; the file's name is the server's (the route and its days).
  const report = useAction(async (run: Run) =>
    download(
      `/admin/reconciliation-runs/${run.id}/report.csv`,
      { delimiter: language === 'fr' ? 'semicolon' : 'comma' },
      `akwe-reconciliation-${run.route}-${run.period_start.slice(0, 10)}-${lastDayOf(run).slice(0, 10)}.csv`,
      false,
    ),
  );
  const periodOf = (run: Run) => {
    const first = formatDay(run.period_start, language);
    const last = formatDay(lastDayOf(run), language);
    return first === last ? first : `${first} – ${last}`;
  };
  const pair = (provider: number, akwe: number) => `${formatMinor(provider, 'XOF', language)} / ${formatMinor(akwe, 'XOF', language)}`;

  return (
    <Page title={t('title')}>
      <p>{t('intro')}</p>
      <section aria-labelledby="reconciliation-upload">
        <h2 id="reconciliation-upload">{t('upload_title')}</h2>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void upload.run(event.currentTarget as HTMLFormElement);
          }}
        >
          <SelectField label={t('provider')} name="provider">
            {providers.map((provider) => (
              <option value={provider}>{provider}</option>
            ))}
          </SelectField>
          <div class="inline-form">
            <Field label={t('route')} name="route" hint={t('route_hint')} maxLength={32} error={upload.fieldError('route')} />
            <Field label={t('day')} name="date" type="date" hint={t('day_hint')} error={upload.fieldError('date')} />
          </div>
          <Field label={t('file')} name="file" type="file" accept=".csv,text/csv" required error={upload.fieldError('file')} />
          <button type="submit" class="button" disabled={upload.busy}>
            {t('import')}
          </button>
        </form>
        {upload.busy ? <Notice>{t('importing')}</Notice> : null}
        {outcome ? <Notice kind="success">{outcome}</Notice> : null}
        <ErrorMessage error={upload.error} />
        {problems ? (
          <div>
            <div class="alert alert-error" role="alert">
              <p>{t('problems', { name: problems.file, count: problems.details.length })}</p>
            </div>
            <table class="table">
              <caption class="visually-hidden">{t('problems_caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('row')}</th>
                  <th scope="col">{t('field')}</th>
                  <th scope="col">{t('problem')}</th>
                </tr>
              </thead>
              <tbody>
                {problems.details.map((detail, index) => (
                  <tr key={index}>
                    <td data-label={t('row')}>{detail.row ?? t('whole_file')}</td>
                    <td data-label={t('field')}>{detail.field}</td>
                    <td data-label={t('problem')}>{detail.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <section aria-labelledby="reconciliation-runs">
        <h2 id="reconciliation-runs">{t('runs_title')}</h2>
        {runs.error ? (
          <ErrorMessage error={runs.error} onRetry={runs.reload} />
        ) : !runs.data ? (
          <Loading />
        ) : runs.data.data.length === 0 ? (
          <p class="muted">{t('no_run')}</p>
        ) : (
          <table class="table">
            <caption class="visually-hidden">{t('runs_title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('period')}</th>
                <th scope="col">{t('provider')}</th>
                <th scope="col">{t('matched')}</th>
                <th scope="col">{t('missing_at_provider')}</th>
                <th scope="col">{t('missing_at_akwe')}</th>
                <th scope="col">{t('amount_differs')}</th>
                <th scope="col">{t('status_differs')}</th>
                <th scope="col">{t('totals')}</th>
                <th scope="col">{t('report')}</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.data.map((run) => (
                <tr key={run.id}>
                  <td data-label={t('period')}>
                    <a href={`/admin/reconciliation/${run.id}`} aria-label={t('open_run', { period: `${periodOf(run)} (${run.route})` })}>
                      {periodOf(run)}
                    </a>
                  </td>
                  <td data-label={t('provider')}>{run.route}</td>
                  <td class="numeric" data-label={t('matched')}>
                    {run.matched_count}
                  </td>
                  <td class="numeric" data-label={t('missing_at_provider')}>
                    {run.missing_at_provider_count}
                  </td>
                  <td class="numeric" data-label={t('missing_at_akwe')}>
                    {run.missing_at_akwe_count}
                  </td>
                  <td class="numeric" data-label={t('amount_differs')}>
                    {run.amounts_differ_count}
                  </td>
                  <td class="numeric" data-label={t('status_differs')}>
                    {run.status_differs_count}
                  </td>
                  <td data-label={t('totals')}>
                    {t('collected', { amounts: pair(run.provider_collected_minor, run.akwe_collected_minor) })}
                    <br />
                    {t('paid_out', { amounts: pair(run.provider_paid_out_minor, run.akwe_paid_out_minor) })}
                  </td>
                  <td data-label={t('report')}>
                    <button
                      type="button"
                      class="button-secondary"
                      aria-label={t('download', { period: `${run.route} ${periodOf(run)}` })}
                      disabled={report.busy}
                      onClick={() => void report.run(run)}
                    >
                      CSV
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <ErrorMessage error={report.error} />
      </section>
    </Page>
  );
}
