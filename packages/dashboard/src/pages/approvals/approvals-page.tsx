/**
 * Maker-checker (docs/dashboard.md "Approvals"): the threshold, and the requests of the active
 * environment, pending ones first by default. A member who may decide approves (then it executes)
 * or rejects with a reason, each after a confirmation step; never their own request (the server
 * refuses it too).
 */
import { useState } from 'preact/hooks';
import { dashboardApi } from '../../api.js';
import { useApp, useCan } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { Field, SelectField, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime, formatMinor } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { navigate, useLocation, withQuery } from '../../router.js';
import { ApprovalPolicy } from './approval-policy.js';
import { approvalTexts, type Approval, type ApprovalList } from './approval-texts.js';

const filters = ['pending', 'executed', 'rejected', 'failed', 'expired', 'all'] as const;

interface Member {
  user_id: string;
  name: string;
}

export function ApprovalsPage() {
  const t = useTexts(approvalTexts);
  const language = useLanguage();
  const { merchant, me } = useApp();
  const can = useCan();
  const location = useLocation();
  const merchantId = merchant?.merchant_id ?? '';
  const status = location.query.get('status') ?? 'pending';
  const after = location.query.get('after') ?? undefined;
  const list = useApi(
    () => dashboardApi<ApprovalList>(`/merchants/${merchantId}/approvals`, { query: { status: status === 'all' ? undefined : status, limit: 20, starting_after: after } }),
    [status, after],
  );
  const members = useApi(() => dashboardApi<{ data: Member[] }>(`/merchants/${merchantId}/members`));
  const nameOf = (userId: string) => (userId === me.user.id ? t('you') : (members.data?.data.find((m) => m.user_id === userId)?.name ?? userId));
  const [outcome, setOutcome] = useState<{ kind: 'success' | 'warning'; text: string } | undefined>();
  const decide = useAction(async (approval: Approval, decision: 'approve' | 'reject', reason?: string) => {
    setOutcome(undefined);
    const answer = await dashboardApi<Approval>(`/merchants/${merchantId}/approvals/${approval.id}/${decision}`, {
      method: 'POST',
      ...(decision === 'reject' ? { body: { reason } } : {}),
    });
    if (answer.status === 'executed') setOutcome({ kind: 'success', text: t('approved_executed') });
    else if (answer.status === 'failed') setOutcome({ kind: 'warning', text: t('approved_failed', { message: answer.error?.message ?? '' }) });
    else setOutcome({ kind: 'success', text: t('rejected_done') });
    list.reload();
  });

  const describe = (approval: Approval): string => {
    const request = approval.request;
    switch (approval.kind) {
      case 'payout':
        return t('payout_to', { reference: String(request.reference), phone: String(request.phone), operator: String(request.operator) });
      case 'transfer':
        return t('transfer_to', { reference: String(request.reference), receiver: String(request.receiver) });
      case 'settlement':
        return t('settlement_to', { account: String(request.settlement_account) });
      case 'refund':
        return t('refund_of', { payment: String(request.payment) });
      default:
        return t('batch');
    }
  };

  return (
    <Page
      title={t('title')}
      actions={
        can('payouts.create') ? (
          <a class="button" href="/dashboard/approvals/new-payout">
            {t('new_payout')}
          </a>
        ) : null
      }
    >
      <ApprovalPolicy />
      <h2>{t('list_title')}</h2>
      <SelectField label={t('filter_status')} value={status} onChange={(event) => navigate(withQuery(location.path, { status: (event.currentTarget as HTMLSelectElement).value }))}>
        {filters.map((name) => (
          <option value={name}>{t(name)}</option>
        ))}
      </SelectField>
      {outcome ? <Notice kind={outcome.kind}>{outcome.text}</Notice> : null}
      <ErrorMessage error={decide.error} />
      {list.error ? (
        <ErrorMessage error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.data.length === 0 ? (
        <p class="muted">{t('none')}</p>
      ) : (
        <table class="table" aria-busy={list.loading}>
          <caption class="visually-hidden">{t('list_title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('what')}</th>
              <th scope="col" class="numeric">
                {t('amount')}
              </th>
              <th scope="col">{t('maker')}</th>
              <th scope="col">{t('created')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((approval) => (
              <tr key={approval.id}>
                <td data-label={t('what')}>
                  {approval.kind === 'batch' ? <a href={`/dashboard/bulk/${String(approval.request.batch_id)}`}>{describe(approval)}</a> : describe(approval)}
                </td>
                <td data-label={t('amount')} class="numeric">
                  {formatMinor(approval.amount_minor, approval.currency, language)}
                </td>
                <td data-label={t('maker')}>{nameOf(approval.maker_id)}</td>
                <td data-label={t('created')}>{formatDateTime(approval.created_at, language)}</td>
                <td data-label={t('status')}>
                  <StatusBadge status={approval.status} />
                  {approval.status === 'pending' && approval.expires_at ? <p class="muted">{t('expires', { at: formatDateTime(approval.expires_at, language) })}</p> : null}
                  {approval.error ? <p class="field-error">{t('error_of', { message: approval.error.message })}</p> : null}
                  {approval.reason ? <p class="muted">{t('reason_of', { reason: approval.reason })}</p> : null}
                </td>
                <td data-label={t('actions')}>
                  {approval.status !== 'pending' ? null : approval.maker_id === me.user.id ? (
                    <p class="muted">{t('own_request')}</p>
                  ) : can('approvals.decide') ? (
                    <Decision approval={approval} what={describe(approval)} busy={decide.busy} onDecide={(decision, reason) => void decide.run(approval, decision, reason)} />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data?.has_more && list.data.next_cursor ? (
        <nav class="pager" aria-label={t('list_title')}>
          <a class="button-secondary" href={withQuery(location.path, { status, after: list.data.next_cursor })}>
            {t('more')}
          </a>
        </nav>
      ) : null}
    </Page>
  );
}

function Decision({ approval, what, busy, onDecide }: { approval: Approval; what: string; busy: boolean; onDecide(decision: 'approve' | 'reject', reason?: string): void }) {
  const t = useTexts(approvalTexts);
  const language = useLanguage();
  const [reason, setReason] = useState('');
  return (
    <div>
      <ConfirmButton
        label={t('approve')}
        busy={busy}
        question={t('approve_question', { what, amount: formatMinor(approval.amount_minor, approval.currency, language) })}
        onConfirm={() => onDecide('approve')}
      />
      <Field label={t('reason')} name="reason" maxLength={500} value={reason} onInput={(event: Event) => setReason((event.currentTarget as HTMLInputElement).value)} />
      {reason.trim() ? <ConfirmButton label={t('reject')} danger busy={busy} question={t('reject_question')} onConfirm={() => onDecide('reject', reason.trim())} /> : null}
    </div>
  );
}
