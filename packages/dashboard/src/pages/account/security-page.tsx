import { useState } from 'preact/hooks';
import { dashboardApi } from '../../api.js';
import { useApp } from '../../app-context.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage, Notice } from '../../components/feedback.js';
import { Field, formValues, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { defineTexts, useTexts } from '../../i18n.js';

const texts = defineTexts(
  {
    title: 'Sécurité',
    totp: 'Double authentification (TOTP)',
    totp_on: 'Activée : un code de votre application est demandé à chaque connexion.',
    totp_off: 'Désactivée.',
    enroll: 'Activer',
    enroll_hint: 'Ajoutez ce compte dans votre application d’authentification (clé ci-dessous), puis saisissez le code affiché.',
    secret: 'Clé secrète',
    code: 'Code à 6 chiffres',
    confirm: 'Confirmer l’activation',
    disable: 'Désactiver',
    enabled: 'Double authentification activée.',
    disabled: 'Double authentification désactivée.',
    sessions: 'Sessions',
    everywhere: 'Se déconnecter partout',
    everywhere_question: 'Fermer toutes vos sessions, sur tous les appareils ?',
  },
  {
    title: 'Security',
    totp: 'Two-factor sign-in (TOTP)',
    totp_on: 'On: a code from your app is asked at each sign-in.',
    totp_off: 'Off.',
    enroll: 'Turn on',
    enroll_hint: 'Add this account to your authenticator app (key below), then type the code it shows.',
    secret: 'Secret key',
    code: '6-digit code',
    confirm: 'Confirm',
    disable: 'Turn off',
    enabled: 'Two-factor sign-in is on.',
    disabled: 'Two-factor sign-in is off.',
    sessions: 'Sessions',
    everywhere: 'Sign out everywhere',
    everywhere_question: 'End all your sessions, on every device?',
  },
);

export function SecurityPage() {
  const t = useTexts(texts);
  const app = useApp();
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauth_url: string } | undefined>();
  const [done, setDone] = useState<'enabled' | 'disabled' | undefined>();
  const enroll = useAction(async () => setEnrolment(await dashboardApi('/me/totp', { method: 'POST', body: {} })));
  const confirm = useAction(async (values: Record<string, string>) => {
    await dashboardApi('/me/totp/confirm', { method: 'POST', body: { code: values.code } });
    setEnrolment(undefined);
    setDone('enabled');
    await app.reloadMe();
  });
  const disable = useAction(async (values: Record<string, string>) => {
    await dashboardApi('/me/totp/disable', { method: 'POST', body: { code: values.code } });
    setDone('disabled');
    await app.reloadMe();
  });
  const everywhere = useAction(async () => {
    await dashboardApi('/auth/sign-out-everywhere', { method: 'POST', body: {} });
    await app.signOut();
  });
  const on = app.me.user.totp_enabled;
  return (
    <Page title={t('title')}>
      <section aria-labelledby="totp-title">
        <h2 id="totp-title">{t('totp')}</h2>
        {done ? <Notice kind="success">{t(done)}</Notice> : null}
        <p>{on ? t('totp_on') : t('totp_off')}</p>
        {on ? (
          <form class="inline-form" onSubmit={(event) => void disable.run(formValues(event))}>
            <Field label={t('code')} name="code" inputMode="numeric" autoComplete="one-time-code" required pattern="[0-9]{6}" />
            <button type="submit" class="button-danger" disabled={disable.busy}>
              {t('disable')}
            </button>
          </form>
        ) : enrolment ? (
          <form onSubmit={(event) => void confirm.run(formValues(event))}>
            <p>{t('enroll_hint')}</p>
            <p>
              {t('secret')} : <code class="secret">{enrolment.secret}</code>
            </p>
            <Field label={t('code')} name="code" inputMode="numeric" autoComplete="one-time-code" required pattern="[0-9]{6}" />
            <button type="submit" class="button" disabled={confirm.busy}>
              {t('confirm')}
            </button>
          </form>
        ) : (
          <button type="button" class="button" disabled={enroll.busy} onClick={() => void enroll.run()}>
            {t('enroll')}
          </button>
        )}
        <ErrorMessage error={enroll.error ?? confirm.error ?? disable.error} />
      </section>
      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">{t('sessions')}</h2>
        <ConfirmButton label={t('everywhere')} danger question={t('everywhere_question')} onConfirm={() => void everywhere.run()} />
        <ErrorMessage error={everywhere.error} />
      </section>
    </Page>
  );
}
