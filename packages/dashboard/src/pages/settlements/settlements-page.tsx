import { download, merchantApi } from '../../api.js';
import { commonTexts } from '../../common-texts.js';
import { DataList } from '../../components/data-list.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Filters, listQueryFrom } from '../../components/filters.js';
import { useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { defineTexts, useLanguage, useTexts } from '../../i18n.js';
import { useLocation } from '../../router.js';
import { DetailsList } from '../../components/details-list.js';
import { DateRangeFields, ReferenceField } from '../../components/filter-fields.js';

const texts = defineTexts(
  {
    title: 'Règlements',
    list: 'Liste des règlements',
    filters: 'Filtrer les règlements',
    detail_title: 'Règlement {reference}',
    destination: 'Destination',
    fee: 'Frais',
    net: 'Net versé',
    origin: 'Origine',
    failure: 'Motif d’échec',
    statement: 'Relevé',
    opening: 'Solde d’ouverture',
    closing: 'Solde de clôture',
    download: 'Télécharger le relevé (CSV)',
    download_excel_fr: 'Télécharger le relevé (Excel en français)',
    lines: 'Lignes du relevé',
  },
  {
    title: 'Settlements',
    list: 'Settlements',
    filters: 'Filter settlements',
    detail_title: 'Settlement {reference}',
    destination: 'Destination',
    fee: 'Fee',
    net: 'Net paid',
    origin: 'Origin',
    failure: 'Failure reason',
    statement: 'Statement',
    opening: 'Opening balance',
    closing: 'Closing balance',
    download: 'Download the statement (CSV)',
    download_excel_fr: 'Download the statement (French Excel)',
    lines: 'Statement lines',
  },
);

interface Settlement {
  id: string;
  reference: string;
  status: string;
  origin: string;
  amount_minor: number;
  fee_minor: number;
  net_amount_minor: number;
  currency: string;
  destination: { kind: string; phone: string | null; iban: string | null; operator: string | null; holder_name: string };
  failure_code: string | null;
  failure_message: string | null;
  statement: { opening_available_minor: number; closing_available_minor: number } | null;
  created_at: string;
}

interface StatementLine {
  id: string;
  type: string;
  currency: string;
  available_change_minor: number;
  created_at: string;
}

const destinationText = (d: Settlement['destination']) => (d.kind === 'wallet' ? `${d.operator ?? ''} ${d.phone ?? ''}` : `${d.iban ?? ''}`).trim();

export function SettlementsPage() {
  const t = useTexts(texts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const { query } = useLocation();
  return (
    <Page title={t('title')}>
      <Filters label={t('filters')}>
        <ReferenceField />
        <DateRangeFields />
      </Filters>
      <DataList<Settlement>
        path="/settlements/"
        caption={t('list')}
        query={listQueryFrom(query, ['reference'])}
        rowHref={(s) => `/dashboard/settlements/${s.id}`}
        columns={[
          { label: c('reference'), render: (s) => s.reference },
          { label: c('amount'), numeric: true, render: (s) => formatMinor(s.amount_minor, s.currency, language) },
          { label: c('status'), render: (s) => <StatusBadge status={s.status} /> },
          { label: t('destination'), render: (s) => destinationText(s.destination) },
          { label: c('created'), render: (s) => formatDateTime(s.created_at, language) },
        ]}
      />
    </Page>
  );
}

export function SettlementDetailPage({ params }: { params: Record<string, string> }) {
  const t = useTexts(texts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const id = params.id ?? '';
  const settlement = useApi(() => merchantApi<Settlement>(`/settlements/${encodeURIComponent(id)}`), [id]);
  const csv = useAction(async (delimiter: 'comma' | 'semicolon') => download(`/settlements/${encodeURIComponent(id)}/statement.csv`, { delimiter }, `statement-${id}.csv`));
  if (settlement.error) return <ErrorMessage error={settlement.error} onRetry={settlement.reload} />;
  if (!settlement.data) return <Loading />;
  const s = settlement.data;
  const rows: [string, preact.ComponentChildren][] = [
    [c('status'), <StatusBadge status={s.status} />],
    [c('amount'), formatMinor(s.amount_minor, s.currency, language)],
    [t('fee'), formatMinor(s.fee_minor, s.currency, language)],
    [t('net'), formatMinor(s.net_amount_minor, s.currency, language)],
    [t('destination'), `${s.destination.holder_name} · ${destinationText(s.destination)}`],
    [t('origin'), s.origin],
    [t('failure'), s.failure_code ? `${s.failure_code} — ${s.failure_message ?? ''}` : '—'],
    [t('opening'), s.statement ? formatMinor(s.statement.opening_available_minor, s.currency, language) : '—'],
    [t('closing'), s.statement ? formatMinor(s.statement.closing_available_minor, s.currency, language) : '—'],
    [c('created'), formatDateTime(s.created_at, language)],
  ];
  return (
    <Page title={t('detail_title', { reference: s.reference })} actions={<a href="/dashboard/settlements">{c('back')}</a>}>
      <DetailsList rows={rows} />
      <h2>{t('statement')}</h2>
      <button type="button" class="button-secondary" disabled={csv.busy} onClick={() => void csv.run('semicolon')}>
        {t('download_excel_fr')}
      </button>{' '}
      <button type="button" class="button-secondary" disabled={csv.busy} onClick={() => void csv.run('comma')}>
        {t('download')}
      </button>
      <ErrorMessage error={csv.error} />
      <DataList<StatementLine>
        path="/balance-transactions"
        caption={t('lines')}
        query={{ settlement: s.id }}
        columns={[
          { label: 'Type', render: (line) => <code>{line.type}</code> },
          { label: c('amount'), numeric: true, render: (line) => formatMinor(line.available_change_minor, line.currency, language) },
          { label: c('created'), render: (line) => formatDateTime(line.created_at, language) },
        ]}
      />
    </Page>
  );
}
