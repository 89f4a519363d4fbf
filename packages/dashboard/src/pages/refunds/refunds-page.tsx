import { commonTexts } from '../../common-texts.js';
import { DataList } from '../../components/data-list.js';
import { Filters, listQueryFrom } from '../../components/filters.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { formatDateTime, formatMoney } from '../../format.js';
import { defineTexts, useLanguage, useTexts } from '../../i18n.js';
import { useLocation } from '../../router.js';
import { DateRangeFields, StatusField } from '../../components/filter-fields.js';

const texts = defineTexts(
  { title: 'Remboursements', list: 'Liste des remboursements', filters: 'Filtrer les remboursements', payment: 'Paiement', reason: 'Motif' },
  { title: 'Refunds', list: 'Refunds', filters: 'Filter refunds', payment: 'Payment', reason: 'Reason' },
);

interface Refund {
  id: string;
  payment_id: string;
  payment_reference: string;
  status: string;
  amount: number;
  currency: string;
  reason: string | null;
  created_at: string;
}

export function RefundsPage() {
  const t = useTexts(texts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const { query } = useLocation();
  return (
    <Page title={t('title')}>
      <Filters label={t('filters')}>
        <StatusField statuses={['pending', 'completed', 'failed']} />
        <DateRangeFields />
      </Filters>
      <DataList<Refund>
        path="/collect/refunds"
        caption={t('list')}
        query={listQueryFrom(query, ['status'])}
        rowHref={(refund) => `/dashboard/payments/${refund.payment_id}`}
        columns={[
          { label: t('payment'), render: (r) => r.payment_reference },
          { label: c('amount'), numeric: true, render: (r) => formatMoney(r.amount, r.currency, language) },
          { label: c('status'), render: (r) => <StatusBadge status={r.status} /> },
          { label: t('reason'), render: (r) => r.reason ?? '—' },
          { label: c('created'), render: (r) => formatDateTime(r.created_at, language) },
        ]}
      />
    </Page>
  );
}
