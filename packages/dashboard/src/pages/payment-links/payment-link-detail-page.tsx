/**
 * One payment link: what it takes, how to share it (link-sharing.tsx), its deactivation (roles with
 * payments.create, after a confirmation) and the payments made through it with their total.
 */
import { merchantApi } from '../../api.js';
import { useCan } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { DataList, type ListAnswer } from '../../components/data-list.js';
import { DetailsList } from '../../components/details-list.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime, formatMinor, formatMoney } from '../../format.js';
import { useLanguage, useTexts, type Language } from '../../i18n.js';
import { useLocation } from '../../router.js';
import type { Payment } from '../payments/payments-page.js';
import { LinkSharing } from './link-sharing.js';
import { paymentLinkTexts } from './payment-link-texts.js';
import type { PaymentLink } from './payment-link.js';

/** Pages of 100 read for the total: enough for a link's payments (10 000) without a separate API. */
const MAX_TOTAL_PAGES = 100;

/** What the link's completed (and refunded: they were paid) payments add up to, in its currency. */
async function paidTotal(linkId: string): Promise<{ amount: number; count: number }> {
  let amount = 0;
  let count = 0;
  let after: string | undefined;
  for (let page = 0; page < MAX_TOTAL_PAGES; page += 1) {
    const list = await merchantApi<ListAnswer<Payment>>('/collect/payments', { query: { payment_link: linkId, limit: 100, starting_after: after } });
    for (const payment of list.data) {
      if (payment.status !== 'completed' && payment.status !== 'refunded') continue;
      amount += payment.amount;
      count += 1;
    }
    if (!list.has_more || !list.next_cursor) break;
    after = list.next_cursor;
  }
  return { amount, count };
}

function amountText(link: PaymentLink, t: (key: keyof typeof paymentLinkTexts.fr, vars?: Record<string, string | number>) => string, language: Language): string {
  if (link.amount_minor !== null) return formatMinor(link.amount_minor, link.currency, language);
  if (link.min_amount_minor === null && link.max_amount_minor === null) return `${t('open')} (${t('any_bound')})`;
  const bound = (value: number | null) => (value === null ? '—' : formatMinor(value, link.currency, language));
  return `${t('open')} (${t('bounds', { min: bound(link.min_amount_minor), max: bound(link.max_amount_minor) })})`;
}

export function PaymentLinkDetailPage({ params }: { params: Record<string, string> }) {
  const t = useTexts(paymentLinkTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const can = useCan();
  const { query } = useLocation();
  const id = params.id ?? '';
  const link = useApi(() => merchantApi<PaymentLink>(`/payment-links/${id}`), [id]);
  const total = useApi(() => paidTotal(id), [id, link.data?.completed_payments]);
  const deactivate = useAction(async () => {
    await merchantApi<PaymentLink>(`/payment-links/${id}/deactivate`, { method: 'POST' });
    link.reload();
  });
  if (link.error) return <ErrorMessage error={link.error} onRetry={link.reload} />;
  if (!link.data) return <Loading />;
  const l = link.data;
  const manage = can('payments.create');
  const limit = l.reusable ? l.max_payments : 1;
  return (
    <Page
      title={l.description}
      actions={
        manage && l.status !== 'inactive' ? (
          <ConfirmButton label={t('deactivate')} danger busy={deactivate.busy} question={t('deactivate_question')} onConfirm={() => void deactivate.run()} />
        ) : null
      }
    >
      {query.get('created') === '1' ? <Notice kind="success">{t('created_notice')}</Notice> : null}
      {l.deactivated_at ? <Notice kind="warning">{t('deactivated_notice')}</Notice> : null}
      {manage ? null : <p class="muted">{t('read_only')}</p>}
      <ErrorMessage error={deactivate.error} />
      <DetailsList
        rows={[
          [t('status'), t(l.status)],
          [c('amount'), amountText(l, t, language)],
          [t('country'), l.countries.join(', ')],
          [t('usage'), l.reusable ? t('multiple') : t('single')],
          [t('paid'), limit === null ? String(l.completed_payments) : t('max_reached', { count: l.completed_payments, max: limit })],
          [t('expires'), l.expires_at ? formatDateTime(l.expires_at, language) : t('never')],
          [c('created'), formatDateTime(l.created_at, language)],
        ]}
      />
      {l.status === 'active' ? <LinkSharing link={l} /> : null}
      <section aria-labelledby="link-payments-title">
        <h2 id="link-payments-title">{t('payments')}</h2>
        {total.error ? (
          <ErrorMessage error={total.error} onRetry={total.reload} />
        ) : total.data ? (
          <p data-link-total>
            <strong>
              {t('total')} : {formatMoney(total.data.amount, l.currency, language)}
            </strong>{' '}
            <span class="muted">{t('total_hint', { count: total.data.count })}</span>
          </p>
        ) : (
          <Loading />
        )}
        <DataList<Payment>
          path="/collect/payments"
          caption={t('payments')}
          query={{ payment_link: id }}
          rowHref={(payment) => `/dashboard/payments/${payment.id}`}
          columns={[
            { label: c('reference'), render: (p) => p.reference },
            { label: c('amount'), numeric: true, render: (p) => formatMoney(p.amount, p.currency, language) },
            { label: c('status'), render: (p) => <StatusBadge status={p.status} /> },
            { label: c('phone'), render: (p) => p.customer?.phone ?? '—' },
            { label: c('created'), render: (p) => formatDateTime(p.created_at, language) },
          ]}
        />
      </section>
    </Page>
  );
}
