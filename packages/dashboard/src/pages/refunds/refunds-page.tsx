import { commonTexts } from '../../common-texts.js';
import { DataList } from '../../components/data-list.js';
import { Filters, listQueryFrom } from '../../components/filters.js';
import { Field, SelectField } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { StatusBadge, useStatusLabel } from '../../components/status-badge.js';
import { formatDateTime, formatMoney } from '../../format.js';
import { defineTexts, useLanguage, useTexts } from '../../i18n.js';
import { useLocation } from '../../router.js';

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
  const statusLabel = useStatusLabel();
  const { query } = useLocation();
  return (
    <Page title={t('title')}>
      <Filters label={t('filters')}>
        <SelectField label={c('status')} name="status" defaultValue={query.get('status') ?? ''}>
          <option value="">{c('all')}</option>
          {['pending', 'completed', 'failed'].map((status) => (
            <option value={status}>{statusLabel(status)}</option>
          ))}
        </SelectField>
        <Field label={c('from')} name="from" type="date" defaultValue={query.get('from') ?? ''} />
        <Field label={c('to')} name="to" type="date" defaultValue={query.get('to') ?? ''} />
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
