/**
 * A payout submitted from the dashboard, through the approvals route: made at once in test or at or
 * below the threshold, otherwise waiting for a second member (docs/dashboard.md "Approvals").
 */
import { useState } from 'preact/hooks';
import { dashboardApi, merchantApi } from '../../api.js';
import { useApp, useCan } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { Field, SelectField, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { useApi } from '../../components/use-api.js';
import { formatMoney } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import type { Approval } from './approval-texts.js';
import { newPayoutTexts } from './new-payout-texts.js';

interface Catalog {
  countries: Array<{ code: string; name: string; operators: Array<{ slug: string; label: string }> }>;
}

type FieldName = 'reference' | 'amount' | 'phone' | 'first_name' | 'last_name' | 'description';

export function NewPayoutPage() {
  const t = useTexts(newPayoutTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const { merchant } = useApp();
  const can = useCan();
  const catalog = useApi(() => merchantApi<Catalog>('/payout/operators/'));
  const [values, setValues] = useState<Record<FieldName, string>>({ reference: '', amount: '', phone: '', first_name: '', last_name: '', description: '' });
  const [country, setCountry] = useState('');
  const [operator, setOperator] = useState('');
  const [answer, setAnswer] = useState<Approval | undefined>();
  // The first country and its first operator until the person picks others.
  const countries = catalog.data?.countries ?? [];
  const chosenCountry = countries.find((entry) => entry.code === country) ?? countries[0];
  const operators = chosenCountry?.operators ?? [];
  const chosenOperator = operators.find((entry) => entry.slug === operator) ?? operators[0];
  const submit = useAction(async () => {
    setAnswer(undefined);
    const body = {
      reference: values.reference.trim(),
      amount: Math.round(Number(values.amount) * 100),
      phone: values.phone.trim(),
      country: chosenCountry?.code,
      operator: chosenOperator?.slug,
      ...(values.first_name.trim() ? { recipient_first_name: values.first_name.trim() } : {}),
      ...(values.last_name.trim() ? { recipient_last_name: values.last_name.trim() } : {}),
      ...(values.description.trim() ? { description: values.description.trim() } : {}),
    };
    setAnswer(await dashboardApi<Approval>(`/merchants/${merchant?.merchant_id ?? ''}/approvals/payouts`, { method: 'POST', body }));
  });

  if (!can('payouts.create')) {
    return (
      <Page title={t('title')}>
        <p class="muted">{c('not_allowed')}</p>
      </Page>
    );
  }
  if (catalog.error) return <ErrorMessage error={catalog.error} onRetry={catalog.reload} />;
  if (!catalog.data) return <Loading />;
  const input = (name: FieldName) => (event: Event) => setValues({ ...values, [name]: (event.currentTarget as HTMLInputElement).value });
  const complete = values.reference.trim() !== '' && Number(values.amount) > 0 && values.phone.trim() !== '' && chosenOperator !== undefined;
  return (
    <Page title={t('title')}>
      <p>{t('intro')}</p>
      <form class="card" onSubmit={(event) => event.preventDefault()}>
        <Field label={t('reference')} name="reference" maxLength={100} required value={values.reference} onInput={input('reference')} error={submit.fieldError('reference')} />
        <Field label={t('amount')} name="amount" type="number" min={1} step="any" required value={values.amount} onInput={input('amount')} error={submit.fieldError('amount')} />
        <SelectField
          label={t('country')}
          name="country"
          value={chosenCountry?.code}
          onChange={(event) => {
            setCountry((event.currentTarget as HTMLSelectElement).value);
            setOperator('');
          }}
        >
          {countries.map((entry) => (
            <option value={entry.code}>{entry.name}</option>
          ))}
        </SelectField>
        <SelectField label={t('operator')} name="operator" value={chosenOperator?.slug} onChange={(event) => setOperator((event.currentTarget as HTMLSelectElement).value)}>
          {operators.map((entry) => (
            <option value={entry.slug}>{entry.label}</option>
          ))}
        </SelectField>
        <Field label={t('phone')} name="phone" type="tel" required value={values.phone} onInput={input('phone')} error={submit.fieldError('phone')} />
        <Field label={t('first_name')} name="first_name" maxLength={100} value={values.first_name} onInput={input('first_name')} />
        <Field label={t('last_name')} name="last_name" maxLength={100} value={values.last_name} onInput={input('last_name')} />
        <Field label={t('description')} name="description" maxLength={255} value={values.description} onInput={input('description')} />
        {complete ? (
          <ConfirmButton
            label={t('submit')}
            busy={submit.busy}
            question={t('question', { amount: formatMoney(Number(values.amount), 'XOF', language), phone: values.phone, operator: chosenOperator?.label ?? '' })}
            onConfirm={() => void submit.run()}
          />
        ) : (
          <button type="button" class="button" disabled>
            {t('submit')}
          </button>
        )}
      </form>
      <ErrorMessage error={submit.error} />
      {answer?.status === 'pending' ? (
        <Notice kind="warning">
          <p>{t('pending')}</p>
          <a href="/dashboard/approvals">{t('see_approvals')}</a>
        </Notice>
      ) : answer?.result ? (
        <Notice kind="success">
          <p>{t('executed')}</p>
          <a href={`/dashboard/payouts/${answer.result.id}`}>{t('see_payout')}</a>
        </Notice>
      ) : null}
    </Page>
  );
}
