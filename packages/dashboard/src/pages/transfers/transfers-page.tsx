import { useApp } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { DataList } from '../../components/data-list.js';
import { Filters, listQueryFrom } from '../../components/filters.js';
import { Page } from '../../components/page.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { defineTexts, useLanguage, useTexts } from '../../i18n.js';
import { useLocation } from '../../router.js';
import { DateRangeFields, ReferenceField } from '../../components/filter-fields.js';

const texts = defineTexts(
  {
    title: 'Transferts',
    list: 'Liste des transferts',
    filters: 'Filtrer les transferts',
    direction: 'Sens',
    sent: 'Envoyé à {merchant}',
    received: 'Reçu de {merchant}',
    description: 'Description',
  },
  {
    title: 'Transfers',
    list: 'Transfers',
    filters: 'Filter transfers',
    direction: 'Direction',
    sent: 'Sent to {merchant}',
    received: 'Received from {merchant}',
    description: 'Description',
  },
);

interface Transfer {
  id: string;
  direction: 'sent' | 'received';
  sender: string;
  receiver: string;
  reference: string | null;
  amount_minor: number;
  currency: string;
  description: string | null;
  created_at: string;
}

export function TransfersPage() {
  const t = useTexts(texts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const { query } = useLocation();
  const { merchant } = useApp();
  return (
    <Page title={t('title')}>
      <Filters label={t('filters')}>
        <ReferenceField />
        <DateRangeFields />
      </Filters>
      <DataList<Transfer>
        path="/transfers/"
        caption={t('list')}
        query={listQueryFrom(query, ['reference'])}
        columns={[
          { label: c('reference'), render: (row) => row.reference ?? row.id },
          {
            label: c('amount'),
            numeric: true,
            render: (row) => formatMinor(row.direction === 'sent' ? -row.amount_minor : row.amount_minor, row.currency, language),
          },
          {
            label: t('direction'),
            render: (row) =>
              row.direction === 'sent' ? t('sent', { merchant: row.receiver }) : t('received', { merchant: row.sender === merchant?.merchant_id ? '—' : row.sender }),
          },
          { label: t('description'), render: (row) => row.description ?? '—' },
          { label: c('created'), render: (row) => formatDateTime(row.created_at, language) },
        ]}
      />
    </Page>
  );
}
