/** The events the API recorded about an object (by its reference), oldest first. */
import { merchantApi } from '../api.js';
import { formatDateTime } from '../format.js';
import { useLanguage } from '../i18n.js';
import type { ListAnswer } from './data-list.js';
import { ErrorMessage, Loading } from './feedback.js';
import { useApi } from './use-api.js';

interface EventRow {
  id: string;
  type: string;
  created_at: string;
}

export function EventTimeline({ reference, title, empty }: { reference: string; title: string; empty: string }) {
  const language = useLanguage();
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
            <li>
              <code>{event.type}</code> <time dateTime={event.created_at}>{formatDateTime(event.created_at, language)}</time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
