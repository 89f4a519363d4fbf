import { useState } from 'preact/hooks';
import { authApi } from '../../api.js';
import { ErrorMessage, Notice } from '../../components/feedback.js';
import { Field, formValues, useAction } from '../../components/form.js';
import { useTexts } from '../../i18n.js';
import { AuthCard } from './auth-card.js';
import { authTexts } from './auth-texts.js';

/** Without a token: ask for a link. With the emailed token: choose the new password. */
export function PasswordResetPage() {
  const t = useTexts(authTexts);
  const token = new URLSearchParams(location.search).get('token');
  const [done, setDone] = useState(false);
  const action = useAction(async (values: Record<string, string>) => {
    if (token) await authApi('/password-reset/complete', { token, password: values.password });
    else await authApi('/password-reset', { email: values.email });
    setDone(true);
  });
  return (
    <AuthCard title={t('reset_title')}>
      {done ? (
        <Notice kind="success">{t(token ? 'reset_done' : 'reset_sent')}</Notice>
      ) : (
        <form onSubmit={(event) => void action.run(formValues(event))}>
          {token ? (
            <Field label={t('new_password')} name="password" type="password" autoComplete="new-password" required minLength={10} hint={t('password_hint')} />
          ) : (
            <Field label={t('email')} name="email" type="email" autoComplete="email" required />
          )}
          <ErrorMessage error={action.error} />
          <button class="button" type="submit" disabled={action.busy}>
            {t(token ? 'new_password' : 'reset_request')}
          </button>
        </form>
      )}
      <p>
        <a href="/dashboard/sign-in">{t('sign_in')}</a>
      </p>
    </AuthCard>
  );
}
