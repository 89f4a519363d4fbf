import { useState } from 'preact/hooks';
import { merchantApi, newIdempotencyKey } from '../../api.js';
import { useCan } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import type { ListAnswer } from '../../components/data-list.js';
import { EventTimeline } from '../../components/event-timeline.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { Field, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime, formatMoney } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { paymentTexts } from './payment-texts.js';
import type { Payment } from './payments-page.js';
import { DetailsList } from '../../components/details-list.js';

interface Refund {
  id: string;
  status: string;
  amount: number;
  currency: string;
  reason: string | null;
  created_at: string;
}

export function PaymentDetailPage({ params }: { params: Record<string, string> }) {
  const t = useTexts(paymentTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const can = useCan();
  const id = params.id ?? '';
  const payment = useApi(() => merchantApi<Payment>(`/collect/payments/${encodeURIComponent(id)}`), [id]);
  const refunds = useApi(() => merchantApi<ListAnswer<Refund>>(`/collect/payments/${encodeURIComponent(id)}/refunds`, { query: { limit: 100 } }), [id]);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey());
  const [refunded, setRefunded] = useState(false);
  const refund = useAction(async () => {
    await merchantApi(`/collect/payments/${encodeURIComponent(id)}/refunds`, {
      method: 'POST',
      idempotencyKey,
      body: { ...(amount ? { amount: Number(amount) } : {}), ...(reason ? { reason } : {}) },
    });
    setRefunded(true);
    setIdempotencyKey(newIdempotencyKey());
    setAmount('');
    payment.reload();
    refunds.reload();
  });

  if (payment.error) return <ErrorMessage error={payment.error} onRetry={payment.reload} />;
  if (!payment.data) return <Loading />;
  const p = payment.data;
  const left = p.amount - (p.refunded_amount ?? 0);
  const rows: [string, preact.ComponentChildren][] = [
    [c('status'), <StatusBadge status={p.status} />],
    [c('amount'), formatMoney(p.amount, p.currency, language)],
    [t('refunded'), formatMoney(p.refunded_amount ?? 0, p.currency, language)],
    [t('mode'), p.mode],
    [c('operator'), p.operator ?? '—'],
    [t('customer'), p.customer?.phone ?? '—'],
    [t('description'), p.description ?? '—'],
    [t('failure'), p.failure_code ? `${p.failure_code} — ${p.message ?? ''}` : '—'],
    [c('created'), formatDateTime(p.created_at, language)],
    ['ID', <code>{p.id}</code>],
  ];
  return (
    <Page title={t('detail_title', { reference: p.reference })} actions={<a href="/dashboard/payments">{c('back')}</a>}>
      <DetailsList rows={rows} />
      <section aria-labelledby="refunds-title">
        <h2 id="refunds-title">{t('refunds')}</h2>
        {refunds.data && refunds.data.data.length > 0 ? (
          <ul class="plain-list">
            {refunds.data.data.map((r) => (
              <li>
                {formatMoney(r.amount, r.currency, language)} <StatusBadge status={r.status} /> {formatDateTime(r.created_at, language)} {r.reason ?? ''}
              </li>
            ))}
          </ul>
        ) : null}
        {refunded ? <Notice kind="success">{t('refund_done')}</Notice> : null}
        {can('refunds.create') && p.status === 'completed' && left > 0 ? (
          <div class="refund-form">
            <Field
              label={t('refund_amount')}
              name="amount"
              type="number"
              min={1}
              max={left}
              inputMode="numeric"
              hint={t('refund_hint')}
              value={amount}
              onInput={(event: Event) => setAmount((event.currentTarget as HTMLInputElement).value)}
            />
            <Field label={t('refund_reason')} name="reason" maxLength={255} value={reason} onInput={(event: Event) => setReason((event.currentTarget as HTMLInputElement).value)} />
            <ErrorMessage error={refund.error} />
            <ConfirmButton
              label={t('refund')}
              danger
              busy={refund.busy}
              question={t('refund_question', { amount: formatMoney(amount ? Number(amount) : left, p.currency, language) })}
              onConfirm={() => void refund.run()}
            />
          </div>
        ) : null}
      </section>
      <EventTimeline reference={p.reference} title={t('timeline')} empty={t('no_events')} />
    </Page>
  );
}
