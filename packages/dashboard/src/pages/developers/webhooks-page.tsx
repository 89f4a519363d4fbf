/** Webhook endpoints of the active environment: the list, and a form to add one (its secret shown once). */
import { useState } from 'preact/hooks';
import { dashboardApi } from '../../api.js';
import { useApp, useCan } from '../../app-context.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Field, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { developerTexts, eventFamilies, type WebhookEndpoint } from './developer-texts.js';
import { SecretOnce } from './secret-once.js';

export function WebhooksPage() {
  const t = useTexts(developerTexts);
  const language = useLanguage();
  const app = useApp();
  const can = useCan();
  const merchantId = app.merchant?.merchant_id ?? '';
  const endpoints = useApi(() => dashboardApi<{ data: WebhookEndpoint[] }>(`/merchants/${merchantId}/webhook-endpoints`, { query: { limit: 100 } }));
  const [created, setCreated] = useState<{ secret: string } | undefined>();
  const create = useAction(async (body: { url: string; description?: string; events?: string[] }, form: HTMLFormElement) => {
    const endpoint = await dashboardApi<WebhookEndpoint>(`/merchants/${merchantId}/webhook-endpoints`, { method: 'POST', body });
    // Created: the form starts empty for the next endpoint (a refused one keeps what was typed).
    form.reset();
    setCreated({ secret: endpoint.secret ?? '' });
    endpoints.reload();
  });
  return (
    <Page title={t('webhooks_title')}>
      {created ? <SecretOnce label={t('signing_secret')} secret={created.secret} warning={t('secret_shown_once')} /> : null}
      {endpoints.error ? (
        <ErrorMessage error={endpoints.error} onRetry={endpoints.reload} />
      ) : !endpoints.data ? (
        <Loading />
      ) : endpoints.data.data.length === 0 ? (
        <p class="muted">{t('no_endpoints')}</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">{t('endpoints_list')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('url')}</th>
              <th scope="col">{t('events')}</th>
              <th scope="col">{t('state')}</th>
              <th scope="col">{t('created')}</th>
            </tr>
          </thead>
          <tbody>
            {endpoints.data.data.map((endpoint) => (
              <tr key={endpoint.id}>
                <td data-label={t('url')}>
                  <a href={`/dashboard/developers/webhooks/${endpoint.id}`}>{endpoint.url}</a>
                </td>
                <td data-label={t('events')}>{endpoint.events.length === 0 ? t('all_events') : endpoint.events.join(', ')}</td>
                <td data-label={t('state')}>
                  <StatusBadge status={endpoint.enabled ? 'active' : 'cancelled'} /> <span class="visually-hidden">{endpoint.enabled ? t('enabled') : t('disabled')}</span>
                </td>
                <td data-label={t('created')}>{formatDateTime(endpoint.created_at, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {can('webhooks.manage') ? (
        <section aria-labelledby="create-endpoint-title">
          <h2 id="create-endpoint-title">{t('create_endpoint_title', { environment: app.environment })}</h2>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const form = event.currentTarget as HTMLFormElement;
              const data = new FormData(form);
              const events = data.getAll('event').map(String);
              const description = String(data.get('description') ?? '').trim();
              void create.run({ url: String(data.get('url') ?? ''), ...(description ? { description } : {}), ...(events.length > 0 ? { events } : {}) }, form);
            }}
          >
            <Field label={t('url')} name="url" type="url" required placeholder="https://" error={create.fieldError('url')} />
            <Field label={t('description')} name="description" error={create.fieldError('description')} />
            <fieldset>
              <legend>{t('events_legend')}</legend>
              <ul class="check-list">
                {eventFamilies.map((family) => (
                  <li key={family}>
                    <label>
                      <input type="checkbox" name="event" value={family} /> <code>{family}</code>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
            <button type="submit" class="button" disabled={create.busy}>
              {t('create_endpoint')}
            </button>
          </form>
          <ErrorMessage error={create.fieldError('url') ? undefined : create.error} />
        </section>
      ) : null}
    </Page>
  );
}
