/** The merchant's approval threshold (XOF, the currency of every country served): read by all, set by owners and admins. */
import { useState } from 'preact/hooks';
import { dashboardApi } from '../../api.js';
import { useApp, useCan } from '../../app-context.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { Field, formValues, useAction } from '../../components/form.js';
import { useApi } from '../../components/use-api.js';
import { formatMinor } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { approvalTexts } from './approval-texts.js';

interface Policy {
  thresholds: Array<{ currency: string; amount_minor: number }>;
}

export function ApprovalPolicy() {
  const t = useTexts(approvalTexts);
  const language = useLanguage();
  const { merchant } = useApp();
  const can = useCan();
  const path = `/merchants/${merchant?.merchant_id ?? ''}/approval-policy`;
  const policy = useApi(() => dashboardApi<Policy>(path));
  const [saved, setSaved] = useState(false);
  const save = useAction(async (thresholdFcfa: string | undefined) => {
    setSaved(false);
    const thresholds = thresholdFcfa === undefined ? [] : [{ currency: 'XOF', amount_minor: Math.round(Number(thresholdFcfa) * 100) }];
    await dashboardApi(path, { method: 'PUT', body: { thresholds } });
    setSaved(true);
    policy.reload();
  });
  if (policy.error) return <ErrorMessage error={policy.error} onRetry={policy.reload} />;
  if (!policy.data) return <Loading />;
  const xof = policy.data.thresholds.find((threshold) => threshold.currency === 'XOF');
  return (
    <section aria-labelledby="policy-title">
      <h2 id="policy-title">{t('policy_title')}</h2>
      <p>{xof ? t('policy_on', { amount: formatMinor(xof.amount_minor, 'XOF', language) }) : t('policy_off')}</p>
      <p class="muted">{t('policy_test')}</p>
      {can('approvals.manage') ? (
        <form class="inline-form" onSubmit={(event) => void save.run(formValues(event).threshold)}>
          <Field
            label={t('threshold')}
            hint={t('threshold_hint')}
            name="threshold"
            type="number"
            min={0}
            step="any"
            required
            defaultValue={xof ? String(xof.amount_minor / 100) : ''}
            error={save.fieldError('thresholds')}
          />
          <button type="submit" class="button" disabled={save.busy}>
            {t('save_policy')}
          </button>
          {xof ? (
            <button type="button" class="button-secondary" disabled={save.busy} onClick={() => void save.run(undefined)}>
              {t('turn_off')}
            </button>
          ) : null}
        </form>
      ) : null}
      {saved ? <Notice kind="success">{t('policy_saved')}</Notice> : null}
      <ErrorMessage error={save.error} />
    </section>
  );
}
