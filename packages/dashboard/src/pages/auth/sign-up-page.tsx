import { useState } from 'preact/hooks';
import { authApi } from '../../api.js';
import { ErrorMessage, Notice } from '../../components/feedback.js';
import { Field, formValues, useAction } from '../../components/form.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { AuthCard } from './auth-card.js';
import { authTexts } from './auth-texts.js';

export function SignUpPage() {
  const t = useTexts(authTexts);
  const language = useLanguage();
  const [sentTo, setSentTo] = useState<string | undefined>();
  const signUp = useAction(async (values: Record<string, string>) => {
    await authApi('/sign-up', { email: values.email, password: values.password, name: values.name, merchant_name: values.merchant_name, language });
    setSentTo(values.email);
  });
  return (
    <AuthCard title={t('sign_up_title')}>
      {sentTo ? (
        <Notice kind="success">{t('signed_up', { email: sentTo })}</Notice>
      ) : (
        <form onSubmit={(event) => void signUp.run(formValues(event))}>
          <Field label={t('name')} name="name" autoComplete="name" required maxLength={200} error={signUp.fieldError('name')} />
          <Field label={t('merchant_name')} name="merchant_name" autoComplete="organization" required maxLength={200} error={signUp.fieldError('merchant_name')} />
          <Field label={t('email')} name="email" type="email" autoComplete="email" required error={signUp.fieldError('email')} />
          <Field
            label={t('password')}
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            hint={t('password_hint')}
            error={signUp.fieldError('password')}
          />
          <ErrorMessage error={signUp.error} />
          <button class="button" type="submit" disabled={signUp.busy}>
            {t('sign_up')}
          </button>
        </form>
      )}
      <p>
        {t('have_account')} <a href="/dashboard/sign-in">{t('sign_in')}</a>
      </p>
    </AuthCard>
  );
}
