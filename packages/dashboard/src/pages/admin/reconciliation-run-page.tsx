/** One reconciliation run: its summary and its lines that did not match, ours and the provider's side by side. */
import { adminApi } from '../../api.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Page } from '../../components/page.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import type { Run } from './reconciliation-page.js';
import { reconciliationTexts } from './reconciliation-texts.js';

interface Line {
  position: number;
  outcome: 'matched' | 'ignored' | 'missing_at_provider' | 'missing_at_akwe' | 'amount_differs' | 'status_differs';
  resource_type: 'payment' | 'payout' | 'refund';
  resource_id: string | null;
  provider_reference: string | null;
  currency: string;
  akwe_amount_minor: number | null;
  provider_amount_minor: number | null;
  akwe_status: string | null;
  provider_status: string | null;
  occurred_at: string | null;
}

export function ReconciliationRunPage({ params }: { params: Record<string, string> }) {
  const t = useTexts(reconciliationTexts);
  const language = useLanguage();
  const id = params.id ?? '';
  const found = useApi(() => adminApi<{ run: Run; lines: Line[] }>(`/reconciliation-runs/${id}`), [id]);
  if (found.error) return <ErrorMessage error={found.error} onRetry={found.reload} />;
  if (!found.data) return <Loading />;
  const { run, lines } = found.data;
  const mismatched = lines.filter((line) => line.outcome !== 'matched' && line.outcome !== 'ignored');
  const amount = (minor: number | null, currency: string) => (minor === null ? '—' : formatMinor(minor, currency || 'XOF', language));
  return (
    <Page title={t('run_title', { route: run.route, day: run.period_start.slice(0, 10) })}>
      <p>
        {t('run_summary', {
          lines: run.line_count,
          matched: run.matched_count,
          mismatched: run.missing_at_provider_count + run.missing_at_akwe_count + run.amounts_differ_count + run.status_differs_count,
        })}
      </p>
      <h2>{t('mismatches_title')}</h2>
      {mismatched.length === 0 ? (
        <p class="muted">{t('no_mismatch')}</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">{t('mismatches_title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('kind')}</th>
              <th scope="col">{t('object')}</th>
              <th scope="col">{t('references')}</th>
              <th scope="col">{t('amounts')}</th>
              <th scope="col">{t('statuses')}</th>
              <th scope="col">{t('when')}</th>
            </tr>
          </thead>
          <tbody>
            {mismatched.map((line) => (
              <tr key={line.position}>
                <td data-label={t('kind')}>{t(line.outcome as 'missing_at_provider')}</td>
                <td data-label={t('object')}>{t(`object_${line.resource_type}`)}</td>
                <td data-label={t('references')}>
                  {line.resource_id ?? '—'}
                  <br />
                  {line.provider_reference ?? '—'}
                </td>
                <td data-label={t('amounts')}>
                  {amount(line.provider_amount_minor, line.currency)} / {amount(line.akwe_amount_minor, line.currency)}
                </td>
                <td data-label={t('statuses')}>
                  {line.provider_status ?? '—'} / {line.akwe_status ?? '—'}
                </td>
                <td data-label={t('when')}>{line.occurred_at ? formatDateTime(line.occurred_at, language) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
