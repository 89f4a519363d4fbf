import { useState } from 'preact/hooks';
import { authApi } from '../../api.js';
import { ErrorMessage } from '../../components/feedback.js';
import { Field, formValues, useAction } from '../../components/form.js';
import { useTexts } from '../../i18n.js';
import { announceSignedIn, type SessionAnswer, type SignInAnswer } from '../../session.js';
import { AuthCard } from './auth-card.js';
import { authTexts } from './auth-texts.js';

/** Where to go once signed in: the page asked for, only if it is one of ours. */
function nextPage(): string {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/(dashboard|admin)(\/|$|\?)/.test(next) ? next : '/dashboard';
}

export function SignInPage() {
  const t = useTexts(authTexts);
  const [challenge, setChallenge] = useState<string | undefined>();
  const done = (session: SessionAnswer) => announceSignedIn(session, nextPage());
  const signIn = useAction(async (values: Record<string, string>) => {
    const answer = await authApi<SignInAnswer>('/sign-in', { email: values.email, password: values.password });
    if ('totp_required' in answer) setChallenge(answer.challenge_token);
    else done(answer);
  });
  const totp = useAction(async (values: Record<string, string>) => {
    done(await authApi<SessionAnswer>('/totp', { challenge_token: challenge, code: values.code?.replace(/\s/g, '') }));
  });
  if (challenge) {
    return (
      <AuthCard title={t('sign_in_title')}>
        <form onSubmit={(event) => void totp.run(formValues(event))}>
          <Field label={t('totp_code')} name="code" inputMode="numeric" autoComplete="one-time-code" required pattern="[0-9 ]{6,7}" autoFocus />
          <ErrorMessage error={totp.error} />
          <button class="button" type="submit" disabled={totp.busy}>
            {t('verify')}
          </button>
        </form>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('sign_in_title')}>
      <form onSubmit={(event) => void signIn.run(formValues(event))}>
        <Field label={t('email')} name="email" type="email" autoComplete="username" required />
        <Field label={t('password')} name="password" type="password" autoComplete="current-password" required />
        <ErrorMessage error={signIn.error} />
        <button class="button" type="submit" disabled={signIn.busy}>
          {t('sign_in')}
        </button>
      </form>
      <p>
        <a href="/dashboard/password-reset">{t('forgot')}</a>
      </p>
      <p>
        {t('no_account')} <a href="/dashboard/sign-up">{t('sign_up_title')}</a>
      </p>
    </AuthCard>
  );
}
