/**
 * One batch: what it adds up to, its submission (through the approvals route: executed at once,
 * or waiting for a second member in live above the threshold), and while it runs its progress,
 * read again every 2 seconds.
 */
import { useEffect, useState } from 'preact/hooks';
import { dashboardApi, merchantApi } from '../../api.js';
import { useApp, useCan } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { DataList } from '../../components/data-list.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import type { Approval, ApprovalList } from '../approvals/approval-texts.js';
import { BatchStatus } from './batch-status.js';
import { bulkTexts, type Batch, type BatchItem } from './bulk-texts.js';
import { DetailsList } from '../../components/details-list.js';

const POLL_MS = 2_000;

export function BatchDetailPage({ params }: { params: Record<string, string> }) {
  const t = useTexts(bulkTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const { merchant } = useApp();
  const can = useCan();
  const merchantId = merchant?.merchant_id ?? '';
  const id = params.id ?? '';
  const batch = useApi(() => merchantApi<Batch>(`/bulk-payments/${id}/`), [id]);
  // A request already waiting for this batch (submitted earlier, maybe by someone else).
  const waiting = useApi(() => dashboardApi<ApprovalList>(`/merchants/${merchantId}/approvals`, { query: { status: 'pending', limit: 100 } }), [id]);
  const [submitted, setSubmitted] = useState<Approval | undefined>();
  const submit = useAction(async () => {
    setSubmitted(await dashboardApi<Approval>(`/merchants/${merchantId}/approvals/batches`, { method: 'POST', body: { batch_id: id } }));
    batch.reload();
  });

  const status = batch.data?.status;
  useEffect(() => {
    if (status !== 'processing') return undefined;
    const timer = setInterval(batch.reload, POLL_MS);
    return () => clearInterval(timer);
  }, [status, batch.reload]);

  if (batch.error) return <ErrorMessage error={batch.error} onRetry={batch.reload} />;
  if (!batch.data) return <Loading />;
  const b = batch.data;
  const pending = submitted?.status === 'pending' ? submitted : waiting.data?.data.find((a) => a.kind === 'batch' && (a.request as { batch_id?: string }).batch_id === b.id);
  const count = (name: string) => b.totals?.[name]?.count ?? 0;
  const done = count('completed') + count('failed') + count('cancelled') + count('invalid');
  return (
    <Page title={b.name} actions={<a href="/dashboard/bulk">{c('back')}</a>}>
      <DetailsList
        rows={[
          [c('status'), <BatchStatus status={b.status} />],
          [t('lines'), b.item_count],
          [t('total'), formatMinor(b.total_amount_minor, b.currency, language)],
          [t('fees'), formatMinor(b.total_fee_minor, b.currency, language)],
          [c('created'), formatDateTime(b.created_at, language)],
          [t('validated'), formatDateTime(b.validated_at, language)],
        ]}
      />

      {b.status === 'draft' ? (
        <section aria-label={t('submit')}>
          {pending ? (
            <Notice kind="warning">
              <p>{t('submitted_pending')}</p>
              <a href="/dashboard/approvals">{t('see_approvals')}</a>
            </Notice>
          ) : can('payouts.create') ? (
            <ConfirmButton
              label={t('submit')}
              busy={submit.busy}
              question={t('submit_question', {
                count: b.item_count,
                total: formatMinor(b.total_amount_minor, b.currency, language),
                fees: formatMinor(b.total_fee_minor, b.currency, language),
              })}
              onConfirm={() => void submit.run()}
            />
          ) : (
            <p class="muted">{t('not_allowed')}</p>
          )}
          <ErrorMessage error={submit.error} />
        </section>
      ) : (
        <section aria-labelledby="progress-title">
          {submitted?.status === 'executed' ? <Notice kind="success">{t('submitted_executed')}</Notice> : null}
          <h2 id="progress-title">{t('progress')}</h2>
          <progress max={b.item_count} value={done} aria-labelledby="progress-title" />
          <p aria-live="polite">{t('progress_text', { done, total: b.item_count, completed: count('completed'), failed: count('failed') })}</p>
        </section>
      )}

      <h2>{t('items')}</h2>
      {/* Drawn again as lines finish, so their statuses follow the progress. */}
      <DataList<BatchItem>
        key={`${b.status}-${done}`}
        path={`/bulk-payments/${b.id}/items/`}
        caption={t('items')}
        query={{}}
        columns={[
          { label: t('row'), numeric: true, render: (item) => item.row },
          { label: t('beneficiary'), render: (item) => item.beneficiary_name },
          { label: c('phone'), render: (item) => item.phone },
          { label: c('amount'), numeric: true, render: (item) => formatMinor(item.amount, item.currency, language) },
          { label: c('status'), render: (item) => <StatusBadge status={item.status} /> },
          { label: t('failure'), render: (item) => item.failure_code ?? '' },
        ]}
      />
    </Page>
  );
}
