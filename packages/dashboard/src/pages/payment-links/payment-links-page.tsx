import { commonTexts } from '../../common-texts.js';
import { DataList } from '../../components/data-list.js';
import { Filters, listQueryFrom } from '../../components/filters.js';
import { Page } from '../../components/page.js';
import { DateRangeFields } from '../../components/filter-fields.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { defineTexts, useLanguage, useTexts } from '../../i18n.js';
import { useLocation } from '../../router.js';

const texts = defineTexts(
  {
    title: 'Liens de paiement',
    list: 'Liste des liens de paiement',
    filters: 'Filtrer les liens de paiement',
    description: 'Ce qui est vendu',
    link: 'Lien à partager',
    status: 'État',
    paid: 'Paiements réussis',
    open: 'Montant libre',
    active: 'Actif',
    inactive: 'Désactivé',
    expired: 'Expiré',
    completed: 'Épuisé',
  },
  {
    title: 'Payment links',
    list: 'Payment links',
    filters: 'Filter payment links',
    description: 'What is sold',
    link: 'Link to share',
    status: 'Status',
    paid: 'Completed payments',
    open: 'Open amount',
    active: 'Active',
    inactive: 'Deactivated',
    expired: 'Expired',
    completed: 'Used up',
  },
);

interface PaymentLink {
  id: string;
  url: string;
  status: 'active' | 'inactive' | 'expired' | 'completed';
  amount_minor: number | null;
  currency: string;
  description: string;
  completed_payments: number;
  created_at: string;
}

/** The merchant's payment links (docs/payment-links.md), read-only: they are made through the API. */
export function PaymentLinksPage() {
  const t = useTexts(texts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const { query } = useLocation();
  return (
    <Page title={t('title')}>
      <Filters label={t('filters')}>
        <DateRangeFields />
      </Filters>
      <DataList<PaymentLink>
        path="/payment-links"
        caption={t('list')}
        query={listQueryFrom(query, [])}
        columns={[
          { label: t('description'), render: (row) => row.description },
          { label: c('amount'), numeric: true, render: (row) => (row.amount_minor === null ? t('open') : formatMinor(row.amount_minor, row.currency, language)) },
          { label: t('status'), render: (row) => t(row.status) },
          { label: t('paid'), numeric: true, render: (row) => String(row.completed_payments) },
          {
            label: t('link'),
            render: (row) => (
              <a href={row.url} rel="noreferrer" target="_blank">
                {row.url}
              </a>
            ),
          },
          { label: c('created'), render: (row) => formatDateTime(row.created_at, language) },
        ]}
      />
    </Page>
  );
}
