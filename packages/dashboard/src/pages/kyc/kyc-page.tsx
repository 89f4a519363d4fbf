import { useState } from 'preact/hooks';
import { dashboardApi } from '../../api.js';
import { useApp, useCan } from '../../app-context.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { Field, SelectField, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { DocumentDrop } from './document-drop.js';
import { kycTexts } from './kyc-texts.js';

export interface KycSubmission {
  id: string;
  merchant_id: string;
  status: 'submitted' | 'validated' | 'rejected';
  legal_name: string;
  registration_number: string;
  country: string;
  address: string;
  representative_name: string;
  tax_id: string | null;
  submitted_at: string;
  reviewed_at: string | null;
  rejection_reason: string | null;
  documents: Array<{ id: string; kind: string; content_type: string; size_bytes: number; original_name: string | null }>;
}

interface MerchantKyc {
  kyc_status: 'pending' | 'submitted' | 'validated' | 'rejected';
  submission: KycSubmission | null;
}

const kinds = ['registration_certificate', 'representative_id', 'proof_of_address', 'other'] as const;

export function KycPage() {
  const t = useTexts(kycTexts);
  const language = useLanguage();
  const app = useApp();
  const can = useCan();
  const merchantId = app.merchant?.merchant_id ?? '';
  const kyc = useApi(() => dashboardApi<MerchantKyc>(`/merchants/${merchantId}/kyc`));
  const [sent, setSent] = useState(false);
  const submit = useAction(async (form: HTMLFormElement) => {
    await dashboardApi(`/merchants/${merchantId}/kyc`, { method: 'POST', form: new FormData(form) });
    setSent(true);
    kyc.reload();
  });
  if (kyc.error) return <ErrorMessage error={kyc.error} onRetry={kyc.reload} />;
  if (!kyc.data) return <Loading />;
  const { kyc_status: status, submission } = kyc.data;
  const open = status === 'pending' || status === 'rejected';
  return (
    <Page title={t('title')}>
      <section aria-labelledby="kyc-status" class="card">
        <h2 id="kyc-status">
          {t('status')} <StatusBadge status={status} />
        </h2>
        {sent ? <Notice kind="success">{t('sent')}</Notice> : null}
        {status === 'pending' ? <p>{t('pending')}</p> : null}
        {status === 'submitted' && submission ? <p>{t('submitted', { date: formatDateTime(submission.submitted_at, language) })}</p> : null}
        {status === 'validated' ? <p>{t('validated')}</p> : null}
        {status === 'rejected' && submission ? (
          <div class="alert alert-warning">
            <p>{t('rejected')}</p>
            <p class="rejection-reason">{submission.rejection_reason}</p>
            <p>{t('resubmit')}</p>
          </div>
        ) : null}
        {submission && status !== 'rejected' ? (
          <>
            <h3>{t('sent_documents')}</h3>
            <ul>
              {submission.documents.map((d) => (
                <li key={d.id}>
                  {t(d.kind as (typeof kinds)[number])} — {d.original_name ?? d.content_type}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
      {open && !can('kyc.submit') ? <Notice>{t('not_allowed')}</Notice> : null}
      {open && can('kyc.submit') ? (
        <form
          aria-label={t('title')}
          onSubmit={(event) => {
            event.preventDefault();
            void submit.run(event.currentTarget as HTMLFormElement);
          }}
        >
          <h2>{t('company')}</h2>
          <Field label={t('legal_name')} name="legal_name" required maxLength={200} defaultValue={submission?.legal_name} error={submit.fieldError('legal_name')} />
          <Field
            label={t('registration_number')}
            name="registration_number"
            required
            maxLength={100}
            defaultValue={submission?.registration_number}
            error={submit.fieldError('registration_number')}
          />
          <SelectField label={t('country')} name="country" defaultValue={submission?.country ?? 'BJ'}>
            {(['BJ', 'TG', 'CI'] as const).map((code) => (
              <option value={code}>{t(code)}</option>
            ))}
          </SelectField>
          <Field label={t('address')} name="address" required maxLength={500} defaultValue={submission?.address} error={submit.fieldError('address')} />
          <Field
            label={t('representative_name')}
            name="representative_name"
            required
            maxLength={200}
            defaultValue={submission?.representative_name}
            error={submit.fieldError('representative_name')}
          />
          <Field label={t('tax_id')} name="tax_id" maxLength={100} defaultValue={submission?.tax_id ?? undefined} />
          <h2>{t('documents')}</h2>
          <p class="muted">{t('documents_hint')}</p>
          {kinds.map((kind) => (
            <DocumentDrop key={kind} name={kind} label={t(kind)} hint={t('drop_hint')} required={kind !== 'other'} />
          ))}
          <ErrorMessage error={submit.error} />
          <button type="submit" class="button" disabled={submit.busy}>
            {t('submit')}
          </button>
        </form>
      ) : null}
    </Page>
  );
}
