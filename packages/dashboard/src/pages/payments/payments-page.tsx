import { commonTexts } from '../../common-texts.js';
import { DataList } from '../../components/data-list.js';
import { Filters, listQueryFrom } from '../../components/filters.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { formatDateTime, formatMoney } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { useLocation } from '../../router.js';
import { paymentTexts } from './payment-texts.js';
import { DateRangeFields, PhoneField, ReferenceField, StatusField } from '../../components/filter-fields.js';

export interface Payment {
  id: string;
  reference: string;
  status: string;
  amount: number;
  currency: string;
  country: string;
  mode: string;
  operator: string | null;
  customer: { phone: string } | null;
  description: string | null;
  failure_code: string | null;
  message: string | null;
  refunded_amount: number;
  created_at: string;
}

const statuses = ['pending', 'processing', 'awaiting_otp', 'awaiting_payment', 'completed', 'failed', 'cancelled', 'expired', 'refunded'];

export function PaymentsPage() {
  const t = useTexts(paymentTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const { query } = useLocation();
  return (
    <Page title={t('title')}>
      <Filters label={t('filters')}>
        <ReferenceField />
        <PhoneField />
        <StatusField statuses={statuses} />
        <DateRangeFields />
      </Filters>
      <DataList<Payment>
        path="/collect/payments"
        caption={t('list')}
        query={listQueryFrom(query, ['reference', 'phone', 'status'])}
        rowHref={(payment) => `/dashboard/payments/${payment.id}`}
        columns={[
          { label: c('reference'), render: (p) => p.reference },
          { label: c('amount'), numeric: true, render: (p) => formatMoney(p.amount, p.currency, language) },
          { label: c('status'), render: (p) => <StatusBadge status={p.status} /> },
          { label: c('phone'), render: (p) => p.customer?.phone ?? '—' },
          { label: c('created'), render: (p) => formatDateTime(p.created_at, language) },
        ]}
      />
    </Page>
  );
}
