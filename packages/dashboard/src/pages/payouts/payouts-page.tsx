import { commonTexts } from '../../common-texts.js';
import { DataList } from '../../components/data-list.js';
import { Filters, listQueryFrom } from '../../components/filters.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { defineTexts, useLanguage, useTexts } from '../../i18n.js';
import { useLocation } from '../../router.js';
import { DateRangeFields, PhoneField, ReferenceField, StatusField } from '../../components/filter-fields.js';

export const payoutTexts = defineTexts(
  {
    title: 'Décaissements',
    filters: 'Filtrer les décaissements',
    list: 'Liste des décaissements',
    detail_title: 'Décaissement {reference}',
    recipient: 'Bénéficiaire',
    fee: 'Frais',
    failure: 'Motif d’échec',
    timeline: 'Chronologie des événements',
    no_events: 'Aucun événement.',
  },
  {
    title: 'Payouts',
    filters: 'Filter payouts',
    list: 'Payouts',
    detail_title: 'Payout {reference}',
    recipient: 'Recipient',
    fee: 'Fee',
    failure: 'Failure reason',
    timeline: 'Event timeline',
    no_events: 'No events.',
  },
);

export interface Payout {
  id: string;
  reference: string;
  status: string;
  /** Centimes, as the payouts API gives it. */
  amount: number;
  fee_minor: number;
  currency: string;
  country: string;
  operator: string;
  phone: string;
  recipient_first_name: string | null;
  recipient_last_name: string | null;
  description: string | null;
  failure_code: string | null;
  message: string | null;
  created_at: string;
}

const statuses = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'];

export function PayoutsPage() {
  const t = useTexts(payoutTexts);
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
      <DataList<Payout>
        path="/payout/mobile-money/"
        caption={t('list')}
        query={listQueryFrom(query, ['reference', 'phone', 'status'])}
        rowHref={(payout) => `/dashboard/payouts/${payout.id}`}
        columns={[
          { label: c('reference'), render: (p) => p.reference },
          { label: c('amount'), numeric: true, render: (p) => formatMinor(p.amount, p.currency, language) },
          { label: c('status'), render: (p) => <StatusBadge status={p.status} /> },
          { label: c('phone'), render: (p) => p.phone },
          { label: c('created'), render: (p) => formatDateTime(p.created_at, language) },
        ]}
      />
    </Page>
  );
}
