import { merchantApi } from '../../api.js';
import { commonTexts } from '../../common-texts.js';
import { DataList } from '../../components/data-list.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Filters, listQueryFrom } from '../../components/filters.js';
import { Page } from '../../components/page.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { defineTexts, useLanguage, useTexts } from '../../i18n.js';
import { useLocation } from '../../router.js';
import { DateRangeFields } from '../../components/filter-fields.js';

export const balanceTexts = defineTexts(
  {
    title: 'Soldes',
    available: 'Disponible',
    reserved: 'Réservé',
    none: 'Aucun solde dans cet environnement.',
    transactions: 'Mouvements du solde',
    filters: 'Filtrer les mouvements',
    type: 'Type',
    change: 'Variation du disponible',
    fee: 'Frais',
    source: 'Origine',
  },
  {
    title: 'Balances',
    available: 'Available',
    reserved: 'Reserved',
    none: 'No balance in this environment.',
    transactions: 'Balance transactions',
    filters: 'Filter balance transactions',
    type: 'Type',
    change: 'Change in available',
    fee: 'Fee',
    source: 'Source',
  },
);

export interface Balances {
  balances: { currency: string; available_minor: number; reserved_minor: number }[];
}

interface BalanceTransaction {
  id: string;
  type: string;
  currency: string;
  available_change_minor: number;
  fee_minor: number;
  source: { object: string; id: string; reference: string | null };
  created_at: string;
}

/** Balances per currency as cards (also on the home page). */
export function BalanceCards() {
  const t = useTexts(balanceTexts);
  const language = useLanguage();
  const balances = useApi(() => merchantApi<Balances>('/balances'));
  if (balances.error) return <ErrorMessage error={balances.error} onRetry={balances.reload} />;
  if (!balances.data) return <Loading />;
  if (balances.data.balances.length === 0) return <p class="muted">{t('none')}</p>;
  return (
    <div class="cards">
      {balances.data.balances.map((balance) => (
        <article class="card stat" aria-label={balance.currency}>
          <p class="stat-label">
            {t('available')} · {balance.currency}
          </p>
          <p class="stat-value">{formatMinor(balance.available_minor, balance.currency, language)}</p>
          <p class="muted">
            {t('reserved')} {formatMinor(balance.reserved_minor, balance.currency, language)}
          </p>
        </article>
      ))}
    </div>
  );
}

export function BalancesPage() {
  const t = useTexts(balanceTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const { query } = useLocation();
  return (
    <Page title={t('title')}>
      <BalanceCards />
      <h2>{t('transactions')}</h2>
      <Filters label={t('filters')}>
        <DateRangeFields />
      </Filters>
      <DataList<BalanceTransaction>
        path="/balance-transactions"
        caption={t('transactions')}
        query={listQueryFrom(query, [])}
        columns={[
          { label: t('type'), render: (row) => <code>{row.type}</code> },
          { label: t('change'), numeric: true, render: (row) => formatMinor(row.available_change_minor, row.currency, language) },
          { label: t('fee'), numeric: true, render: (row) => formatMinor(row.fee_minor, row.currency, language) },
          { label: t('source'), render: (row) => `${row.source.object} ${row.source.reference ?? row.source.id}` },
          { label: c('created'), render: (row) => formatDateTime(row.created_at, language) },
        ]}
      />
    </Page>
  );
}
