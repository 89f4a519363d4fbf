import { useState } from 'preact/hooks';
import { authApi } from '../../api.js';
import { ErrorMessage, Notice } from '../../components/feedback.js';
import { Field, formValues, useAction } from '../../components/form.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { AuthCard } from './auth-card.js';
import { authTexts } from './auth-texts.js';

export function AcceptInvitationPage() {
  const t = useTexts(authTexts);
  const language = useLanguage();
  const [accepted, setAccepted] = useState(false);
  const accept = useAction(async (values: Record<string, string>) => {
    const token = new URLSearchParams(location.search).get('token') ?? '';
    await authApi('/invitations/accept', { token, ...(values.name ? { name: values.name } : {}), ...(values.password ? { password: values.password } : {}), language });
    setAccepted(true);
  });
  return (
    <AuthCard title={t('invitation_title')}>
      {accepted ? (
        <Notice kind="success">{t('accepted')}</Notice>
      ) : (
        <form onSubmit={(event) => void accept.run(formValues(event))}>
          <p class="muted">{t('invitation_hint')}</p>
          <Field label={t('name')} name="name" autoComplete="name" maxLength={200} error={accept.fieldError('name')} />
          <Field label={t('password')} name="password" type="password" autoComplete="new-password" minLength={10} error={accept.fieldError('password')} />
          <ErrorMessage error={accept.error} />
          <button class="button" type="submit" disabled={accept.busy}>
            {t('accept')}
          </button>
        </form>
      )}
      <p>
        <a href="/dashboard/sign-in">{t('sign_in')}</a>
      </p>
    </AuthCard>
  );
}
