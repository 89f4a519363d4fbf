/**
 * One webhook endpoint: its settings, disable / enable, rotate the secret (shown once), send a test
 * event, and its delivery log with every try (status, response excerpt), the request (the event)
 * and a resend.
 */
import { useState } from 'preact/hooks';
import { dashboardApi, merchantApi } from '../../api.js';
import { useApp, useCan } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { SelectField, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { StatusBadge } from '../../components/status-badge.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime } from '../../format.js';
import { useLanguage, useTexts } from '../../i18n.js';
import { developerTexts, testEventTypes, type Delivery, type WebhookEndpoint } from './developer-texts.js';
import { SecretOnce } from './secret-once.js';
import { DetailsList } from '../../components/details-list.js';

export function WebhookEndpointPage({ params }: { params: Record<string, string> }) {
  const t = useTexts(developerTexts);
  const c = useTexts(commonTexts);
  const language = useLanguage();
  const app = useApp();
  const can = useCan();
  const merchantId = app.merchant?.merchant_id ?? '';
  const id = params.id ?? '';
  const base = `/merchants/${merchantId}/webhook-endpoints/${id}`;
  const endpoint = useApi(() => merchantApi<WebhookEndpoint>(`/webhook-endpoints/${id}`), [id]);
  const deliveries = useApi(() => dashboardApi<{ data: Delivery[] }>(`${base}/deliveries`, { query: { limit: 50 } }), [id]);
  const [secret, setSecret] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [requests, setRequests] = useState<Record<string, string>>({});
  const manage = can('webhooks.manage');

  const change = useAction(async (enabled: boolean) => {
    await dashboardApi(base, { method: 'PATCH', body: { enabled } });
    endpoint.reload();
  });
  const rotate = useAction(async () => {
    const rotated = await dashboardApi<WebhookEndpoint>(`${base}/rotate-secret`, { method: 'POST', body: {} });
    setSecret(rotated.secret);
  });
  const sendTest = useAction(async (type: string) => {
    await dashboardApi(`${base}/test-event`, { method: 'POST', body: type ? { type } : {} });
    setNotice(t('test_event_sent'));
    deliveries.reload();
  });
  const resend = useAction(async (eventId: string) => {
    await dashboardApi(`/merchants/${merchantId}/events/${eventId}/resend`, { method: 'POST', body: { endpoint_id: id } });
    setNotice(t('resent'));
    deliveries.reload();
  });
  const showRequest = useAction(async (eventId: string) => {
    const event = await merchantApi<unknown>(`/events/${eventId}`);
    setRequests((shown) => ({ ...shown, [eventId]: JSON.stringify(event, null, 2) }));
  });

  if (endpoint.error) return <Page title={t('endpoint_title')}>{<ErrorMessage error={endpoint.error} onRetry={endpoint.reload} />}</Page>;
  if (!endpoint.data) {
    return (
      <Page title={t('endpoint_title')}>
        <Loading />
      </Page>
    );
  }
  const current = endpoint.data;
  return (
    <Page title={t('endpoint_title')} actions={<a href="/dashboard/developers/webhooks">{c('back')}</a>}>
      <DetailsList
        rows={[
          [t('url'), current.url],
          [t('events'), current.events.length === 0 ? t('all_events') : current.events.join(', ')],
          [t('state'), current.enabled ? t('enabled') : t('disabled')],
          [t('api_version'), current.api_version],
          ...(current.description ? [[t('description'), current.description] as [string, string]] : []),
        ]}
      />
      {secret ? <SecretOnce label={t('signing_secret')} secret={secret} warning={t('secret_shown_once')} /> : null}
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <ErrorMessage error={change.error ?? rotate.error ?? resend.error ?? showRequest.error} />
      {manage ? (
        <section aria-labelledby="endpoint-actions">
          <h2 id="endpoint-actions" class="visually-hidden">
            {c('details')}
          </h2>
          <div class="inline-form">
            {current.enabled ? (
              <ConfirmButton label={t('disable')} danger question={t('disable_question')} onConfirm={() => void change.run(false)} />
            ) : (
              <button type="button" class="button" onClick={() => void change.run(true)}>
                {t('enable')}
              </button>
            )}
            <ConfirmButton label={t('rotate')} question={t('rotate_question')} onConfirm={() => void rotate.run()} />
          </div>
          <form
            class="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              void sendTest.run(String(new FormData(event.currentTarget as HTMLFormElement).get('type') ?? ''));
            }}
          >
            <SelectField label={t('test_event_type')} name="type" defaultValue="">
              <option value="">{t('test_event_auto')}</option>
              {testEventTypes.map((type) => (
                <option value={type}>{type}</option>
              ))}
            </SelectField>
            <button type="submit" class="button" disabled={sendTest.busy || !current.enabled}>
              {t('test_event')}
            </button>
          </form>
          <ErrorMessage error={sendTest.error} />
        </section>
      ) : null}
      <section aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">{t('deliveries')}</h2>
        <button type="button" class="button-secondary" onClick={deliveries.reload}>
          {t('refresh')}
        </button>
        {deliveries.error ? (
          <ErrorMessage error={deliveries.error} onRetry={deliveries.reload} />
        ) : !deliveries.data ? (
          <Loading />
        ) : deliveries.data.data.length === 0 ? (
          <p class="muted">{t('no_deliveries')}</p>
        ) : (
          <ul class="check-list">
            {deliveries.data.data.map((delivery) => (
              <li key={delivery.id} class="card">
                <p>
                  <StatusBadge status={delivery.status} /> {formatDateTime(delivery.created_at, language)} · {t('event')} <code>{delivery.event_id}</code> · {t('attempts')}{' '}
                  {delivery.attempts}
                  {delivery.last_status_code !== null ? ` · HTTP ${delivery.last_status_code}` : ''}
                </p>
                <details>
                  <summary>{t('attempt_details', { id: delivery.id.slice(-8) })}</summary>
                  <ol class="plain-list">
                    {(delivery.attempts_log ?? []).map((attempt) => (
                      <li key={attempt.number}>
                        {t('attempt_line', {
                          number: attempt.number,
                          date: formatDateTime(attempt.attempted_at, language),
                          status: attempt.status_code === null ? t('no_answer') : `HTTP ${attempt.status_code}`,
                          ms: attempt.duration_ms ?? '—',
                        })}
                        {attempt.error ? <span class="field-error"> {attempt.error}</span> : null}
                        {attempt.response_excerpt ? (
                          <>
                            <span class="muted"> {t('response')} :</span>
                            <pre class="code-block" tabIndex={0}>
                              {attempt.response_excerpt}
                            </pre>
                          </>
                        ) : null}
                      </li>
                    ))}
                  </ol>
                </details>
                <div class="inline-form">
                  <button type="button" class="button-secondary" onClick={() => void showRequest.run(delivery.event_id)}>
                    {t('request')}
                  </button>
                  {manage ? (
                    <button type="button" class="button-secondary" disabled={resend.busy} onClick={() => void resend.run(delivery.event_id)}>
                      {t('resend')}
                    </button>
                  ) : null}
                </div>
                {requests[delivery.event_id] ? (
                  <>
                    <p class="muted">{t('request_body')}</p>
                    <pre class="code-block" tabIndex={0}>
                      {requests[delivery.event_id]}
                    </pre>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </Page>
  );
}
