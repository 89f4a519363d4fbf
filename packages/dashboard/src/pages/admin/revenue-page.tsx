/** Platform revenue (docs/operations.md "Revenue"): fees per day, operator, route or merchant, with providers' costs and margin. */
import { useState } from 'preact/hooks';
import { adminApi, download } from '../../api.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { Field, SelectField, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { useApi } from '../../components/use-api.js';
import { formatMinor, formatNumber } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { revenueTexts } from './revenue-texts.js';

const groupings = ['day', 'operator', 'route', 'merchant'] as const;
type Grouping = (typeof groupings)[number];
type Flow = 'collection' | 'payout' | 'settlement' | 'refund' | 'transfer' | 'other';

interface Amounts {
  currency: string;
  fees_minor: number;
  volume_minor: number;
  transactions: number;
  provider_costs_minor: number;
  margin_minor: number;
  costs_complete: boolean;
}

interface Row extends Amounts {
  day?: string;
  operator?: string | null;
  route?: string | null;
  flow?: Flow;
  merchant_id?: string;
  merchant_name?: string;
}

interface Report {
  rows: Row[];
  totals: Amounts[];
}

interface Query {
  from: string;
  to: string;
  group_by: Grouping;
  environment: 'live' | 'test';
}

/** This month so far, in UTC: from its first day to tomorrow. */
function thisMonth(): Query {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return { from: first.toISOString().slice(0, 10), to: tomorrow.toISOString().slice(0, 10), group_by: 'day', environment: 'live' };
}

export function RevenuePage() {
  const t = useTexts(revenueTexts);
  const language = useLanguage();
  const [query, setQuery] = useState<Query>(thisMonth);
  // What the form shows until it is sent: the report follows `query` alone.
  const [draft, setDraft] = useState<Query>(query);
  const change = (field: keyof Query) => (event: Event) => setDraft({ ...draft, [field]: (event.currentTarget as HTMLInputElement | HTMLSelectElement).value });
  const [downloaded, setDownloaded] = useState<string | undefined>();
  const report = useApi(() => adminApi<Report>('/revenue', { query: { ...query } }), [JSON.stringify(query)]);
  const csv = useAction(async (delimiter: 'semicolon' | 'comma') => {
    const file = `akwe-revenue-${query.environment}-${query.group_by}-${query.from}-${query.to}.csv`;
    setDownloaded(undefined);
    await download('/admin/revenue.csv', { ...query, delimiter }, file);
    setDownloaded(file);
  });
  const money = (amount: number, currency: string) => formatMinor(amount, currency, language);
  const costs = (amounts: Amounts) => {
    const value = money(amounts.provider_costs_minor, amounts.currency);
    return amounts.costs_complete ? value : t('incomplete', { amount: value });
  };
  const label = (row: Row): string => {
    if (query.group_by === 'day') return row.day ?? '';
    if (query.group_by === 'merchant') return row.merchant_name ?? row.merchant_id ?? '';
    if (query.group_by === 'operator') return row.operator ?? t('no_operator');
    return `${row.operator ?? t('no_operator')} / ${row.route ?? t('no_route')}`;
  };
  const amountCells = (amounts: Amounts) => (
    <>
      <td data-label={t('currency')}>{amounts.currency}</td>
      <td data-label={t('fees')}>{money(amounts.fees_minor, amounts.currency)}</td>
      <td data-label={t('volume')}>{money(amounts.volume_minor, amounts.currency)}</td>
      <td data-label={t('transactions')}>{formatNumber(amounts.transactions, language)}</td>
      <td data-label={t('costs')}>{costs(amounts)}</td>
      <td data-label={t('margin')}>{money(amounts.margin_minor, amounts.currency)}</td>
    </>
  );
  const amountHeaders = (
    <>
      <th scope="col">{t('currency')}</th>
      <th scope="col">{t('fees')}</th>
      <th scope="col">{t('volume')}</th>
      <th scope="col">{t('transactions')}</th>
      <th scope="col">{t('costs')}</th>
      <th scope="col">{t('margin')}</th>
    </>
  );
  return (
    <Page title={t('title')}>
      <p>{t('intro')}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setQuery({ ...draft, group_by: (groupings as readonly string[]).includes(draft.group_by) ? draft.group_by : 'day' });
        }}
      >
        <div class="inline-form">
          <Field label={t('from')} name="from" type="date" required value={draft.from} onInput={change('from')} />
          <Field label={t('to')} name="to" type="date" required value={draft.to} onInput={change('to')} />
          <SelectField label={t('group_by')} name="group_by" value={draft.group_by} onChange={change('group_by')}>
            {groupings.map((g) => (
              <option value={g}>{t(g)}</option>
            ))}
          </SelectField>
          <SelectField label={t('environment')} name="environment" value={draft.environment} onChange={change('environment')}>
            <option value="live">{t('live')}</option>
            <option value="test">{t('test')}</option>
          </SelectField>
        </div>
        <div class="inline-form">
          <button type="submit" class="button">
            {t('show')}
          </button>
          {/* The file of the report shown (the query last sent, not the fields being edited). */}
          <button type="button" class="button-secondary" disabled={csv.busy} onClick={() => void csv.run('semicolon')}>
            {t('csv_semicolon')}
          </button>
          <button type="button" class="button-secondary" disabled={csv.busy} onClick={() => void csv.run('comma')}>
            {t('csv_comma')}
          </button>
        </div>
      </form>
      {downloaded ? <Notice kind="success">{t('downloaded', { file: downloaded })}</Notice> : null}
      <ErrorMessage error={csv.error} />
      {report.error ? (
        <ErrorMessage error={report.error} onRetry={report.reload} />
      ) : !report.data ? (
        <Loading />
      ) : report.data.rows.length === 0 ? (
        <p class="muted">{t('none')}</p>
      ) : (
        <>
          <h2>{t('totals')}</h2>
          <table class="table">
            <caption class="visually-hidden">{t('totals')}</caption>
            <thead>
              <tr>{amountHeaders}</tr>
            </thead>
            <tbody>
              {report.data.totals.map((total) => (
                <tr key={total.currency}>{amountCells(total)}</tr>
              ))}
            </tbody>
          </table>
          <h2>{t('rows')}</h2>
          <table class="table">
            <caption class="visually-hidden">{t('rows')}</caption>
            <thead>
              <tr>
                <th scope="col">{t(query.group_by)}</th>
                {query.group_by === 'route' ? <th scope="col">{t('flow')}</th> : null}
                {amountHeaders}
              </tr>
            </thead>
            <tbody>
              {report.data.rows.map((row) => (
                <tr key={JSON.stringify(row)}>
                  <th scope="row" data-label={t(query.group_by)}>
                    {label(row)}
                  </th>
                  {query.group_by === 'route' ? <td data-label={t('flow')}>{row.flow ? t(row.flow) : ''}</td> : null}
                  {amountCells(row)}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Page>
  );
}
