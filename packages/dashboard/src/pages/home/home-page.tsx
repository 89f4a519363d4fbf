import { dashboardApi, merchantApi } from '../../api.js';
import { useApp } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { BarChart } from '../../components/bar-chart.js';
import type { ListAnswer } from '../../components/data-list.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime, formatDay, formatMinor, formatMoney, formatNumber } from '../../format.js';
import { defineTexts, useLanguage, useTexts } from '../../i18n.js';
import { BalanceCards } from '../balances/balances-page.js';
import type { Payment } from '../payments/payments-page.js';

const texts = defineTexts(
  {
    title: 'Accueil',
    balances: 'Soldes',
    volume: 'Encaissements',
    today: 'Aujourd’hui',
    month: '30 derniers jours',
    payments_count: '{count} paiements',
    chart: 'Encaissements par jour, 30 derniers jours ({currency})',
    no_volume: 'Aucun encaissement sur 30 jours.',
    last_payments: 'Derniers paiements',
    all_payments: 'Tous les paiements',
    alerts: 'Alertes',
    kyc: 'Votre dossier KYC n’est pas validé : la production (clés live, décaissements réels) attend sa validation.',
    kyc_link: 'Compléter le dossier',
    endpoint_failing: 'Le point de terminaison webhook {url} est désactivé ({reason}).',
    operator_down: 'L’opérateur {operator} est indisponible.',
  },
  {
    title: 'Home',
    balances: 'Balances',
    volume: 'Collected',
    today: 'Today',
    month: 'Last 30 days',
    payments_count: '{count} payments',
    chart: 'Collected per day, last 30 days ({currency})',
    no_volume: 'Nothing collected in 30 days.',
    last_payments: 'Latest payments',
    all_payments: 'All payments',
    alerts: 'Alerts',
    kyc: 'Your KYC is not validated: live mode (live keys, real payouts) waits for it.',
    kyc_link: 'Complete it',
    endpoint_failing: 'The webhook endpoint {url} is disabled ({reason}).',
    operator_down: 'Operator {operator} is unavailable.',
  },
);

interface Overview {
  days: { day: string; currency: string; count: number; amount_minor: number }[];
}
interface Account {
  kyc_status: string;
}
interface Endpoint {
  url: string;
  enabled: boolean;
  disabled_reason: string | null;
}
interface CatalogOperator {
  slug: string;
  label?: string;
  status?: string;
}

function Alerts() {
  const t = useTexts(texts);
  const { merchant } = useApp();
  const merchantId = merchant?.merchant_id ?? '';
  const alerts = useApi(async () => {
    const [account, endpoints, operators] = await Promise.all([
      merchantApi<Account>('/account'),
      dashboardApi<{ data: Endpoint[] }>(`/merchants/${merchantId}/webhook-endpoints`).catch(() => ({ data: [] })),
      merchantApi<{ countries: { operators: CatalogOperator[] }[] }>('/collect/payments/operators/').catch(() => ({ countries: [] })),
    ]);
    const list: preact.ComponentChildren[] = [];
    if (account.kyc_status !== 'validated') {
      list.push(
        <>
          {t('kyc')} <a href="/dashboard/kyc">{t('kyc_link')}</a>
        </>,
      );
    }
    for (const endpoint of endpoints.data)
      if (!endpoint.enabled && endpoint.disabled_reason) list.push(t('endpoint_failing', { url: endpoint.url, reason: endpoint.disabled_reason }));
    for (const operator of operators.countries.flatMap((country) => country.operators)) {
      if (operator.status && operator.status !== 'available') list.push(t('operator_down', { operator: operator.label ?? operator.slug }));
    }
    return list;
  });
  if (!alerts.data || alerts.data.length === 0) return null;
  return (
    <section aria-labelledby="alerts-title" class="alerts">
      <h2 id="alerts-title">{t('alerts')}</h2>
      <ul>
        {alerts.data.map((alert) => (
          <li class="alert alert-warning">{alert}</li>
        ))}
      </ul>
    </section>
  );
}

function Volume() {
  const t = useTexts(texts);
  const language = useLanguage();
  const { merchant } = useApp();
  const overview = useApi(() => dashboardApi<Overview>(`/merchants/${merchant?.merchant_id ?? ''}/overview`, { query: { days: 30 } }));
  if (overview.error) return <ErrorMessage error={overview.error} onRetry={overview.reload} />;
  if (!overview.data) return <Loading />;
  const currencies = [...new Set(overview.data.days.map((day) => day.currency))];
  if (currencies.length === 0) return <p class="muted">{t('no_volume')}</p>;
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      {currencies.map((currency) => {
        const days = overview.data!.days.filter((day) => day.currency === currency);
        const sum = (rows: typeof days) => rows.reduce((total, row) => ({ count: total.count + row.count, amount: total.amount + row.amount_minor }), { count: 0, amount: 0 });
        const todays = sum(days.filter((day) => day.day === today));
        const month = sum(days);
        return (
          <div class="volume">
            <div class="cards">
              <article class="card stat">
                <p class="stat-label">{t('today')}</p>
                <p class="stat-value">{formatMinor(todays.amount, currency, language)}</p>
                <p class="muted">{t('payments_count', { count: formatNumber(todays.count, language) })}</p>
              </article>
              <article class="card stat">
                <p class="stat-label">{t('month')}</p>
                <p class="stat-value">{formatMinor(month.amount, currency, language)}</p>
                <p class="muted">{t('payments_count', { count: formatNumber(month.count, language) })}</p>
              </article>
            </div>
            <BarChart
              title={t('chart', { currency })}
              bars={days.map((day) => ({ label: formatDay(`${day.day}T12:00:00Z`, language), value: day.amount_minor, text: formatMinor(day.amount_minor, currency, language) }))}
            />
          </div>
        );
      })}
    </>
  );
}

function LastPayments() {
  const t = useTexts(texts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const payments = useApi(() => merchantApi<ListAnswer<Payment>>('/collect/payments', { query: { limit: 5 } }));
  if (payments.error) return <ErrorMessage error={payments.error} onRetry={payments.reload} />;
  if (!payments.data) return <Loading />;
  if (payments.data.data.length === 0) return <p class="muted">{c('empty')}</p>;
  return (
    <>
      <ul class="plain-list">
        {payments.data.data.map((p) => (
          <li>
            <a href={`/dashboard/payments/${p.id}`}>{p.reference}</a> · {formatMoney(p.amount, p.currency, language)} <StatusBadge status={p.status} /> ·{' '}
            <span class="muted">{formatDateTime(p.created_at, language)}</span>
          </li>
        ))}
      </ul>
      <p>
        <a href="/dashboard/payments">{t('all_payments')}</a>
      </p>
    </>
  );
}

export function HomePage() {
  const t = useTexts(texts);
  return (
    <Page title={t('title')}>
      <Alerts />
      <h2>{t('balances')}</h2>
      <BalanceCards />
      <h2>{t('volume')}</h2>
      <Volume />
      <h2>{t('last_payments')}</h2>
      <LastPayments />
    </Page>
  );
}
