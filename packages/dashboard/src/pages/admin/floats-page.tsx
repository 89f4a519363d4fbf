import { adminApi } from '../../api.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Page } from '../../components/page.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { floatTexts } from './float-texts.js';
import type { RouteFloat } from './route-float.js';

const stateTone: Record<RouteFloat['state'], string> = { ok: 'good', low: 'bad', no_threshold: 'neutral', read_failed: 'bad', unread: 'neutral' };

/** Every live route's provider float beside what the ledger expects there (docs/operations.md "Floats"). */
export function FloatsPage() {
  const t = useTexts(floatTexts);
  const language = useLanguage();
  const floats = useApi(() => adminApi<{ data: RouteFloat[] }>('/floats'));
  return (
    <Page title={t('title')}>
      <p class="muted">{t('intro')}</p>
      {floats.error ? (
        <ErrorMessage error={floats.error} onRetry={floats.reload} />
      ) : !floats.data ? (
        <Loading />
      ) : floats.data.data.length === 0 ? (
        <p class="muted">{t('none')}</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">{t('title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('route')}</th>
              <th scope="col">{t('balance')}</th>
              <th scope="col">{t('read_at')}</th>
              <th scope="col">{t('threshold')}</th>
              <th scope="col">{t('state')}</th>
              <th scope="col">{t('expected')}</th>
              <th scope="col">{t('pays_out')}</th>
            </tr>
          </thead>
          <tbody>
            {floats.data.data.map((f) => {
              const currency = f.currency ?? f.expected_currency ?? 'XOF';
              return (
                <tr key={f.route}>
                  <th scope="row" data-label={t('route')}>
                    {f.route}
                  </th>
                  <td data-label={t('balance')}>{formatMinor(f.balance_minor, currency, language)}</td>
                  <td data-label={t('read_at')}>{formatDateTime(f.read_at, language)}</td>
                  <td data-label={t('threshold')}>{f.threshold_minor === null ? t('no_threshold_value') : formatMinor(f.threshold_minor, currency, language)}</td>
                  <td data-label={t('state')}>
                    <span class={`badge badge-${stateTone[f.state]}`}>{t(`state_${f.state}`)}</span>
                    {f.last_error && f.state === 'read_failed' ? <span class="muted"> {t('last_error', { error: f.last_error })}</span> : null}
                  </td>
                  <td data-label={t('expected')}>{formatMinor(f.expected_minor, f.expected_currency ?? currency, language)}</td>
                  <td data-label={t('pays_out')}>{f.pays_out ? t('yes') : t('no')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </Page>
  );
}
