import { adminApi } from '../../api.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { navigate, useLocation } from '../../router.js';
import type { KycSubmission } from '../kyc/kyc-page.js';
import { adminTexts } from './admin-texts.js';

const statuses = ['submitted', 'validated', 'rejected'] as const;

/** The submissions waiting for a review (or those decided), newest first. */
export function KycReviewPage() {
  const t = useTexts(adminTexts);
  const language = useLanguage();
  const { query } = useLocation();
  const status = statuses.find((s) => s === query.get('status')) ?? 'submitted';
  const list = useApi(() => adminApi<{ data: KycSubmission[] }>('/kyc-submissions', { query: { status, limit: 100 } }), [status]);
  return (
    <Page title={t('review_title')}>
      <div class="field">
        <label for="kyc-status-filter">{t('filter_status')}</label>
        <select id="kyc-status-filter" value={status} onChange={(event) => navigate(`/admin?status=${(event.currentTarget as HTMLSelectElement).value}`)}>
          {statuses.map((s) => (
            <option value={s}>{t(s)}</option>
          ))}
        </select>
      </div>
      {list.error ? (
        <ErrorMessage error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.data.length === 0 ? (
        <p class="muted">{t('none')}</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">{t('review_title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('legal_name')}</th>
              <th scope="col">{t('country')}</th>
              <th scope="col">{t('submitted_at')}</th>
              <th scope="col">{t('status')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((s) => (
              <tr key={s.id}>
                <td data-label={t('legal_name')}>
                  <a href={`/admin/kyc/${s.id}`} aria-label={t('open', { name: s.legal_name })}>
                    {s.legal_name}
                  </a>
                </td>
                <td data-label={t('country')}>{s.country}</td>
                <td data-label={t('submitted_at')}>{formatDateTime(s.submitted_at, language)}</td>
                <td data-label={t('status')}>
                  <StatusBadge status={s.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
