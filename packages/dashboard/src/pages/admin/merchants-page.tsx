import { adminApi } from '../../api.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Field, formValues, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { adminTexts } from './admin-texts.js';

interface AdminMerchant {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  kyc_status: string;
  created_at: string;
}

/** Every merchant with its statuses; suspend or reactivate with a reason (kept in the audit log). */
export function MerchantsPage() {
  const t = useTexts(adminTexts);
  const language = useLanguage();
  const list = useApi(() => adminApi<{ data: AdminMerchant[] }>('/merchants'));
  const change = useAction(async (merchant: AdminMerchant, reason: string) => {
    await adminApi(`/merchants/${merchant.id}/${merchant.status === 'active' ? 'suspend' : 'reactivate'}`, { method: 'POST', body: { reason } });
    list.reload();
  });
  return (
    <Page title={t('merchants_title')}>
      <ErrorMessage error={change.error} />
      {list.error ? (
        <ErrorMessage error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : (
        <table class="table">
          <caption class="visually-hidden">{t('merchants_title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('merchant')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('kyc')}</th>
              <th scope="col">{t('created')}</th>
              <th scope="col">{t('action')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((m) => (
              <tr key={m.id}>
                <td data-label={t('merchant')}>{m.name}</td>
                <td data-label={t('status')}>
                  <StatusBadge status={m.status} />
                </td>
                <td data-label={t('kyc')}>
                  <StatusBadge status={m.kyc_status} />
                </td>
                <td data-label={t('created')}>{formatDateTime(m.created_at, language)}</td>
                <td data-label={t('action')}>
                  <form class="inline-form" onSubmit={(event) => void change.run(m, formValues(event).reason ?? '')}>
                    <Field label={t('action_reason', { name: m.name })} name="reason" required maxLength={1000} />
                    <button type="submit" class={m.status === 'active' ? 'button-danger' : 'button'} disabled={change.busy}>
                      {m.status === 'active' ? t('suspend') : t('reactivate')}
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
