import { adminApi } from '../../api.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { adminTexts } from './admin-texts.js';

interface OperatorHealth {
  country: string;
  operator: string;
  name: string;
  environment: 'test' | 'live';
  health: string;
}

type DiscrepancyKind = 'operator_answer' | 'missing_at_provider' | 'missing_at_akwe' | 'amount_differs' | 'status_differs';

interface Discrepancy {
  id: string;
  kind: DiscrepancyKind;
  merchant_id: string | null;
  environment: string;
  resource_type: string;
  reference: string;
  operator: string;
  our_status: string;
  operator_status: string;
  created_at: string;
}

/** The operators that are not answering, and the discrepancies to decide: operator answers our records refused, and what reconciliations found. */
export function OperationsPage() {
  const t = useTexts(adminTexts);
  const language = useLanguage();
  const operators = useApi(() => adminApi<{ data: OperatorHealth[] }>('/operators', { query: { failing: 'true' } }));
  const discrepancies = useApi(() => adminApi<{ data: Discrepancy[] }>('/discrepancies'));
  return (
    <Page title={t('operators_title')}>
      <h2>{t('failing')}</h2>
      {operators.error ? (
        <ErrorMessage error={operators.error} onRetry={operators.reload} />
      ) : !operators.data ? (
        <Loading />
      ) : operators.data.data.length === 0 ? (
        <p class="muted">{t('all_available')}</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">{t('failing')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('operator')}</th>
              <th scope="col">{t('country')}</th>
              <th scope="col">{t('environment')}</th>
              <th scope="col">{t('health')}</th>
            </tr>
          </thead>
          <tbody>
            {operators.data.data.map((o) => (
              <tr key={`${o.environment}-${o.country}-${o.operator}`}>
                <td data-label={t('operator')}>{o.name}</td>
                <td data-label={t('country')}>{o.country}</td>
                <td data-label={t('environment')}>{o.environment}</td>
                <td data-label={t('health')}>
                  <StatusBadge status={o.health} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>{t('discrepancies')}</h2>
      {discrepancies.error ? (
        <ErrorMessage error={discrepancies.error} onRetry={discrepancies.reload} />
      ) : !discrepancies.data ? (
        <Loading />
      ) : discrepancies.data.data.length === 0 ? (
        <p class="muted">{t('no_discrepancy')}</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">{t('discrepancies')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('when')}</th>
              <th scope="col">{t('kind')}</th>
              <th scope="col">{t('resource')}</th>
              <th scope="col">{t('reference')}</th>
              <th scope="col">{t('operator')}</th>
              <th scope="col">{t('our_status')}</th>
              <th scope="col">{t('operator_status')}</th>
            </tr>
          </thead>
          <tbody>
            {discrepancies.data.data.map((d) => (
              <tr key={d.id}>
                <td data-label={t('when')}>{formatDateTime(d.created_at, language)}</td>
                <td data-label={t('kind')}>{t(`kind_${d.kind}`)}</td>
                <td data-label={t('resource')}>
                  {d.resource_type} ({d.environment})
                </td>
                <td data-label={t('reference')}>{d.reference}</td>
                <td data-label={t('operator')}>{d.operator}</td>
                <td data-label={t('our_status')}>{d.our_status}</td>
                <td data-label={t('operator_status')}>{d.operator_status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
