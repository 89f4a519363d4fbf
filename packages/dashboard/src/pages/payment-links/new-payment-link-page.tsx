/**
 * A new payment link (docs/payment-links.md), made with `POST /payment-links` as the signed-in
 * user (roles with payments.create); then the link's page, to share it.
 */
import { useState } from 'preact/hooks';
import { ApiError, merchantApi, newIdempotencyKey } from '../../api.js';
import { useCan } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { ErrorMessage } from '../../components/feedback.js';
import { Field, SelectField, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { navigate } from '../../router.js';
import { paymentLinkTexts } from './payment-link-texts.js';
import type { PaymentLink } from './payment-link.js';

const countries = [
  { code: 'BJ', fr: 'Bénin', en: 'Benin' },
  { code: 'TG', fr: 'Togo', en: 'Togo' },
  { code: 'CI', fr: 'Côte d’Ivoire', en: 'Côte d’Ivoire' },
];

/** Whole FCFA typed by a person -> centimes; empty -> absent. */
const centimes = (text: string | undefined) => (text && text.trim() !== '' ? Math.round(Number(text.replace(/[\s\u00a0\u202f]/g, '')) * 100) : undefined);

/** The API's body from the form's fields; only what was filled in is sent. */
export function linkBody(values: Record<string, string>): Record<string, unknown> {
  const open = values.amount_kind === 'open';
  const reusable = values.usage !== 'single';
  const body: Record<string, unknown> = {
    description: values.description ?? '',
    country: values.country,
    currency: values.currency,
    reusable,
    amount_minor: open ? undefined : centimes(values.amount),
    min_amount_minor: open ? centimes(values.min) : undefined,
    max_amount_minor: open ? centimes(values.max) : undefined,
    max_payments: reusable && values.max_payments ? Number(values.max_payments) : undefined,
    expires_at: values.expires_at ? new Date(values.expires_at).toISOString() : undefined,
    return_url: values.return_url?.trim() || undefined,
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

export function NewPaymentLinkPage() {
  const t = useTexts(paymentLinkTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const can = useCan();
  const [open, setOpen] = useState(false);
  const [single, setSingle] = useState(false);
  // A retry after a lost answer (no answer, 5xx) keeps the key and gets the same link back; a
  // refusal (4xx) stored nothing, so the corrected form goes with a new key.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const create = useAction(async (values: Record<string, string>) => {
    try {
      const link = await merchantApi<PaymentLink>('/payment-links', { method: 'POST', body: linkBody(values), idempotencyKey });
      navigate(`/dashboard/payment-links/${link.id}?created=1`);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) setIdempotencyKey(newIdempotencyKey());
      throw error;
    }
  });
  if (!can('payments.create')) {
    return (
      <Page title={t('new_title')}>
        <p class="muted">{c('not_allowed')}</p>
      </Page>
    );
  }
  const radio = (name: string, value: string, label: string, checked: boolean, onChange: () => void) => (
    <li>
      <label>
        <input type="radio" name={name} value={value} checked={checked} onChange={onChange} /> {label}
      </label>
    </li>
  );
  return (
    <Page title={t('new_title')}>
      <form
        class="card"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget as HTMLFormElement;
          void create.run(Object.fromEntries([...new FormData(form).entries()].map(([name, value]) => [name, String(value)])));
        }}
      >
        <Field label={t('description')} name="description" required maxLength={255} error={create.fieldError('description')} />
        <fieldset>
          <legend>{t('amount_kind')}</legend>
          <ul class="check-list">
            {radio('amount_kind', 'fixed', t('fixed_amount'), !open, () => setOpen(false))}
            {radio('amount_kind', 'open', t('open_amount'), open, () => setOpen(true))}
          </ul>
        </fieldset>
        {open ? (
          <>
            <Field label={t('min_fcfa')} name="min" type="number" min={1} step={1} error={create.fieldError('min_amount_minor')} />
            <Field label={t('max_fcfa')} name="max" type="number" min={1} step={1} error={create.fieldError('max_amount_minor')} />
          </>
        ) : (
          <Field label={t('amount_fcfa')} name="amount" type="number" min={1} step={1} required error={create.fieldError('amount_minor')} />
        )}
        <SelectField label={t('country')} name="country">
          {countries.map((country) => (
            <option value={country.code}>{country[language]}</option>
          ))}
        </SelectField>
        <SelectField label={t('currency')} name="currency">
          <option value="XOF">XOF (F CFA)</option>
          <option value="XAF">XAF</option>
        </SelectField>
        <fieldset>
          <legend>{t('usage')}</legend>
          <ul class="check-list">
            {radio('usage', 'reusable', t('reusable'), !single, () => setSingle(false))}
            {radio('usage', 'single', t('single_use'), single, () => setSingle(true))}
          </ul>
        </fieldset>
        {single ? null : <Field label={t('max_payments')} name="max_payments" type="number" min={1} step={1} error={create.fieldError('max_payments')} />}
        <Field label={t('expires_at')} name="expires_at" type="datetime-local" error={create.fieldError('expires_at')} />
        <Field label={t('return_url')} name="return_url" type="url" placeholder="https://" error={create.fieldError('return_url')} />
        <button type="submit" class="button" disabled={create.busy}>
          {t('create')}
        </button>
      </form>
      <ErrorMessage error={create.error} />
    </Page>
  );
}
