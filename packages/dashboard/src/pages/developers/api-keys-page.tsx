/** API keys of the active environment: create (with scopes; the secret shown once), revoke, last used. */
import { useState } from 'preact/hooks';
import { dashboardApi } from '../../api.js';
import { useApp, useCan } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { developerTexts, scopes } from './developer-texts.js';
import { SecretOnce } from './secret-once.js';

interface ApiKey {
  id: string;
  environment: string;
  prefix: string;
  last4: string;
  scopes: string[];
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  /** What the key holds beyond its creator's current role: a warning when not empty. */
  scopes_beyond_creator_role: string[];
}

export function ApiKeysPage() {
  const t = useTexts(developerTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const app = useApp();
  const can = useCan();
  const merchantId = app.merchant?.merchant_id ?? '';
  const keys = useApi(() => dashboardApi<{ data: ApiKey[] }>(`/merchants/${merchantId}/keys`));
  const [created, setCreated] = useState<{ secret: string; id: string } | undefined>();
  const create = useAction(async (chosen: string[], form: HTMLFormElement) => {
    const key = await dashboardApi<ApiKey & { secret: string }>(`/merchants/${merchantId}/keys`, { method: 'POST', body: { scopes: chosen } });
    setCreated({ secret: key.secret, id: key.id });
    // The next key starts from nothing ticked, not from this one's scopes.
    form.reset();
    keys.reload();
  });
  // A key holds at most the creator's role's scopes: only those are offered.
  const offered = scopes.filter((scope) => app.merchant?.key_scopes.includes(scope));
  const revoke = useAction(async (keyId: string) => {
    await dashboardApi(`/merchants/${merchantId}/keys/${keyId}`, { method: 'DELETE' });
    keys.reload();
  });
  const manage = can('keys.manage');
  const label = (key: ApiKey) => `${key.prefix}…${key.last4}`;
  return (
    <Page title={t('keys_title')}>
      {created ? <SecretOnce label={t('new_key')} secret={created.secret} warning={t('shown_once')} /> : null}
      <ErrorMessage error={revoke.error} />
      {keys.error ? (
        <ErrorMessage error={keys.error} onRetry={keys.reload} />
      ) : !keys.data ? (
        <Loading />
      ) : keys.data.data.length === 0 ? (
        <p class="muted">{t('no_keys')}</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">{t('keys_list')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('key')}</th>
              <th scope="col">{t('scopes')}</th>
              <th scope="col">{t('created')}</th>
              <th scope="col">{t('last_used')}</th>
              <th scope="col">{t('state')}</th>
              {manage ? <th scope="col">{c('details')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {keys.data.data.map((key) => (
              <tr key={key.id}>
                <td data-label={t('key')}>
                  <code>{label(key)}</code>
                </td>
                <td data-label={t('scopes')}>
                  {key.scopes.length === 0 ? t('all_scopes') : key.scopes.join(', ')}
                  {key.scopes_beyond_creator_role.length > 0 ? <Notice kind="warning">{t('beyond_role', { scopes: key.scopes_beyond_creator_role.join(', ') })}</Notice> : null}
                </td>
                <td data-label={t('created')}>{formatDateTime(key.created_at, language)}</td>
                <td data-label={t('last_used')}>{key.last_used_at ? formatDateTime(key.last_used_at, language) : t('never_used')}</td>
                <td data-label={t('state')}>{key.revoked_at ? t('revoked', { date: formatDateTime(key.revoked_at, language) }) : t('active')}</td>
                {manage ? (
                  <td data-label={c('details')}>
                    {key.revoked_at ? null : (
                      <ConfirmButton label={t('revoke')} danger busy={revoke.busy} question={t('revoke_question', { key: label(key) })} onConfirm={() => void revoke.run(key.id)} />
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {manage ? (
        <section aria-labelledby="create-key-title">
          <h2 id="create-key-title">{t('create_key_title', { environment: app.environment })}</h2>
          {app.environment === 'live' ? <Notice>{t('live_needs_kyc')}</Notice> : null}
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const form = event.currentTarget as HTMLFormElement;
              const chosen = [...new FormData(form).getAll('scope')].map(String);
              void create.run(chosen, form);
            }}
          >
            <fieldset>
              <legend>{t('scopes_legend')}</legend>
              <ul class="check-list">
                {offered.map((scope) => (
                  <li key={scope}>
                    <label>
                      <input type="checkbox" name="scope" value={scope} /> <code>{scope}</code>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
            <button type="submit" class="button" disabled={create.busy}>
              {t('create_key')}
            </button>
          </form>
          <ErrorMessage error={create.error} />
        </section>
      ) : null}
    </Page>
  );
}
