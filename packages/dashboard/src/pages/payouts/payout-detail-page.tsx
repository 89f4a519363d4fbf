import { merchantApi } from '../../api.js';
import { commonTexts } from '../../common-texts.js';
import { EventTimeline } from '../../components/event-timeline.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { payoutTexts, type Payout } from './payouts-page.js';
import { DetailsList } from '../../components/details-list.js';

export function PayoutDetailPage({ params }: { params: Record<string, string> }) {
  const t = useTexts(payoutTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const id = params.id ?? '';
  const payout = useApi(() => merchantApi<Payout>(`/payout/mobile-money/${encodeURIComponent(id)}/`), [id]);
  if (payout.error) return <ErrorMessage error={payout.error} onRetry={payout.reload} />;
  if (!payout.data) return <Loading />;
  const p = payout.data;
  const name = [p.recipient_first_name, p.recipient_last_name].filter(Boolean).join(' ');
  const rows: [string, preact.ComponentChildren][] = [
    [c('status'), <StatusBadge status={p.status} />],
    [c('amount'), formatMinor(p.amount, p.currency, language)],
    [t('fee'), formatMinor(p.fee_minor, p.currency, language)],
    [t('recipient'), `${name ? `${name} · ` : ''}${p.phone}`],
    [c('operator'), p.operator],
    [t('failure'), p.failure_code ? `${p.failure_code} — ${p.message ?? ''}` : '—'],
    [c('created'), formatDateTime(p.created_at, language)],
    ['ID', <code>{p.id}</code>],
  ];
  return (
    <Page title={t('detail_title', { reference: p.reference })} actions={<a href="/dashboard/payouts">{c('back')}</a>}>
      <DetailsList rows={rows} />
      <EventTimeline reference={p.reference} title={t('timeline')} empty={t('no_events')} />
    </Page>
  );
}
