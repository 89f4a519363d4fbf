import { adminApi, download } from '../../api.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { Field, formValues, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { StatusBadge, useStatusLabel } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import type { KycSubmission } from '../kyc/kyc-page.js';
import { adminTexts } from './admin-texts.js';

type Kind = 'registration_certificate' | 'representative_id' | 'proof_of_address' | 'other';
const extension: Record<string, string> = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' };

/** One submission: its details, its documents (downloaded, never shown inline), and the decision. */
export function KycSubmissionPage({ params }: { params: Record<string, string> }) {
  const t = useTexts(adminTexts);
  const statusLabel = useStatusLabel();
  const language = useLanguage();
  const id = params.id ?? '';
  const submission = useApi(() => adminApi<KycSubmission>(`/kyc-submissions/${id}`), [id]);
  const decide = useAction(async (reason: string | undefined) => {
    await adminApi(`/kyc-submissions/${id}/${reason === undefined ? 'approve' : 'reject'}`, reason === undefined ? { method: 'POST' } : { method: 'POST', body: { reason } });
    submission.reload();
  });
  const fetchDocument = useAction(async (documentId: string, name: string) => download(`/admin/kyc-submissions/${id}/documents/${documentId}`, undefined, name));
  if (submission.error) return <ErrorMessage error={submission.error} onRetry={submission.reload} />;
  if (!submission.data) return <Loading />;
  const s = submission.data;
  const rows: Array<[string, string | null]> = [
    [t('legal_name'), s.legal_name],
    [t('registration_number'), s.registration_number],
    [t('country'), s.country],
    [t('address'), s.address],
    [t('representative_name'), s.representative_name],
    [t('tax_id'), s.tax_id],
    [t('submitted_at'), formatDateTime(s.submitted_at, language)],
  ];
  return (
    <Page title={t('submission_title', { name: s.legal_name })}>
      <p>
        <StatusBadge status={s.status} />
      </p>
      {s.status !== 'submitted' ? <Notice kind={s.status === 'validated' ? 'success' : 'warning'}>{t('decided', { status: statusLabel(s.status) })}</Notice> : null}
      {s.rejection_reason ? <p class="rejection-reason">{s.rejection_reason}</p> : null}
      <dl class="card">
        {rows.map(([label, value]) => (
          <>
            <dt>{label}</dt>
            <dd>{value ?? '—'}</dd>
          </>
        ))}
      </dl>
      <h2>{t('documents')}</h2>
      <ErrorMessage error={fetchDocument.error} />
      <ul>
        {s.documents.map((d) => (
          <li key={d.id}>
            <button type="button" class="button-secondary" onClick={() => void fetchDocument.run(d.id, `${d.kind}-${d.id}.${extension[d.content_type] ?? 'bin'}`)}>
              {t('download', { kind: t(d.kind as Kind) })}
            </button>{' '}
            <span class="muted">
              {d.original_name ?? ''} ({Math.ceil(d.size_bytes / 1024)} Ko)
            </span>
          </li>
        ))}
      </ul>
      {s.status === 'submitted' ? (
        <section aria-labelledby="decision-title">
          <h2 id="decision-title">{t('review_title')}</h2>
          <ErrorMessage error={decide.error} />
          <ConfirmButton label={t('approve')} question={t('approve_question', { name: s.legal_name })} busy={decide.busy} onConfirm={() => void decide.run(undefined)} />
          <form class="inline-form" onSubmit={(event) => void decide.run(formValues(event).reason ?? '')}>
            <Field label={t('reason')} name="reason" required maxLength={1000} error={decide.fieldError('reason')} />
            <button type="submit" class="button-danger" disabled={decide.busy}>
              {t('reject')}
            </button>
          </form>
        </section>
      ) : null}
    </Page>
  );
}
