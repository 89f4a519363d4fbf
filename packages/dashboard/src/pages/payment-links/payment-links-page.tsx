import { useCan } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { DataList } from '../../components/data-list.js';
import { Filters, listQueryFrom } from '../../components/filters.js';
import { Page } from '../../components/page.js';
import { DateRangeFields } from '../../components/filter-fields.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { useLocation } from '../../router.js';
import { paymentLinkTexts } from './payment-link-texts.js';
import type { PaymentLink } from './payment-link.js';

/**
 * The merchant's payment links (docs/payment-links.md), each opening its page (share, QR code,
 * deactivation, payments); roles with payments.create also make new ones, the others only read.
 */
export function PaymentLinksPage() {
  const t = useTexts(paymentLinkTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const can = useCan();
  const { query } = useLocation();
  return (
    <Page
      title={t('title')}
      actions={
        can('payments.create') ? (
          <a class="button" href="/dashboard/payment-links/new">
            {t('new_link')}
          </a>
        ) : null
      }
    >
      {can('payments.create') ? null : <p class="muted">{t('read_only')}</p>}
      <Filters label={t('filters')}>
        <DateRangeFields />
      </Filters>
      <DataList<PaymentLink>
        path="/payment-links"
        caption={t('list')}
        query={listQueryFrom(query, [])}
        rowHref={(row) => `/dashboard/payment-links/${row.id}`}
        columns={[
          { label: t('description'), render: (row) => row.description },
          { label: c('amount'), numeric: true, render: (row) => (row.amount_minor === null ? t('open') : formatMinor(row.amount_minor, row.currency, language)) },
          { label: t('status'), render: (row) => t(row.status) },
          { label: t('paid'), numeric: true, render: (row) => String(row.completed_payments) },
          { label: t('link'), render: (row) => <code>{row.url}</code> },
          { label: c('created'), render: (row) => formatDateTime(row.created_at, language) },
        ]}
      />
    </Page>
  );
}
