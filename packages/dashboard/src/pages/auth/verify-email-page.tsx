import { useEffect } from 'preact/hooks';
import { authApi } from '../../api.js';
import { ErrorMessage, Notice } from '../../components/feedback.js';
import { useAction } from '../../components/form.js';
import { useTexts } from '../../i18n.js';
import { AuthCard } from './auth-card.js';
import { authTexts } from './auth-texts.js';
import { useState } from 'preact/hooks';

export function VerifyEmailPage() {
  const t = useTexts(authTexts);
  const [verified, setVerified] = useState(false);
  const verify = useAction(async () => {
    await authApi('/verify-email', { token: new URLSearchParams(location.search).get('token') ?? '' });
    setVerified(true);
  });
  useEffect(() => {
    void verify.run();
  }, []);
  return (
    <AuthCard title={t('verify_title')}>
      {verified ? <Notice kind="success">{t('verified')}</Notice> : verify.error ? <ErrorMessage error={verify.error} /> : <p role="status">{t('verifying')}</p>}
      <p>
        <a href="/dashboard/sign-in">{t('sign_in')}</a>
      </p>
    </AuthCard>
  );
}
