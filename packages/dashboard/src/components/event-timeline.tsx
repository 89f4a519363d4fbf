/**
 * The events the API recorded about an object (by its reference), oldest first, each with where
 * it was delivered (opened on demand: one request per event the person looks at).
 */
import { useState } from 'preact/hooks';
import { dashboardApi, merchantApi } from '../api.js';
import { useApp } from '../app-context.js';
import { formatDateTime } from '../format.js';
import { defineTexts, useLanguage, useTexts } from '../i18n.js';
import type { ListAnswer } from './data-list.js';
import { ErrorMessage, Loading } from './feedback.js';
import { StatusBadge } from './status-badge.js';
import { useApi } from './use-api.js';

const texts = defineTexts(
  { deliveries: 'Livraisons', none: 'Envoyé à aucun point de terminaison.', tries: '{count} essai(s), dernier code {code}', no_answer: 'pas de réponse' },
  { deliveries: 'Deliveries', none: 'Sent to no endpoint.', tries: '{count} try(ies), last code {code}', no_answer: 'no answer' },
);

interface EventRow {
  id: string;
  type: string;
  created_at: string;
}

interface Delivery {
  id: string;
  endpoint_id: string | null;
  status: string;
  attempts_log: { status_code: number | null }[];
}

function EventDeliveries({ eventId }: { eventId: string }) {
  const t = useTexts(texts);
  const { merchant } = useApp();
  const deliveries = useApi(() => dashboardApi<{ data: Delivery[] }>(`/merchants/${merchant?.merchant_id ?? ''}/events/${eventId}/deliveries`), [eventId]);
  if (deliveries.error) return <ErrorMessage error={deliveries.error} />;
  if (!deliveries.data) return <Loading />;
  if (deliveries.data.data.length === 0) return <p class="muted">{t('none')}</p>;
  return (
    <ul class="plain-list">
      {deliveries.data.data.map((delivery) => (
        <li>
          {delivery.endpoint_id ? <a href={`/dashboard/developers/webhooks/${delivery.endpoint_id}`}>{delivery.endpoint_id.slice(0, 8)}</a> : '—'}{' '}
          <StatusBadge status={delivery.status} /> {t('tries', { count: delivery.attempts_log.length, code: delivery.attempts_log.at(-1)?.status_code ?? t('no_answer') })}
        </li>
      ))}
    </ul>
  );
}

function EventItem({ event }: { event: EventRow }) {
  const t = useTexts(texts);
  const language = useLanguage();
  const [open, setOpen] = useState(false);
  return (
    <li>
      <code>{event.type}</code> <time dateTime={event.created_at}>{formatDateTime(event.created_at, language)}</time>
      <details onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
        <summary>{t('deliveries')}</summary>
        {open ? <EventDeliveries eventId={event.id} /> : null}
      </details>
    </li>
  );
}

export function EventTimeline({ reference, title, empty }: { reference: string; title: string; empty: string }) {
  const events = useApi(() => merchantApi<ListAnswer<EventRow>>('/events', { query: { reference, limit: 100 } }), [reference]);
  return (
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">{title}</h2>
      {events.error ? (
        <ErrorMessage error={events.error} />
      ) : !events.data ? (
        <Loading />
      ) : events.data.data.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <ol class="timeline">
          {[...events.data.data].reverse().map((event) => (
            <EventItem event={event} key={event.id} />
          ))}
        </ol>
      )}
    </section>
  );
}
