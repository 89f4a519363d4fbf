/** The merchant's audit log (owners and admins): who did what, when, from where; older rows page by page. */
import { useState } from 'preact/hooks';
import { dashboardApi } from '../../api.js';
import { useApp } from '../../app-context.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { Page } from '../../components/page.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime } from '../../format.js';
import { defineTexts, useLanguage, useTexts } from '../../i18n.js';

const texts = defineTexts(
  {
    title: 'Journal d’audit',
    list: 'Actions dans ce compte, les plus récentes d’abord',
    when: 'Quand',
    who: 'Qui',
    action: 'Action',
    target: 'Objet',
    where: 'Depuis',
    older: 'Plus anciennes',
    newest: 'Les plus récentes',
    empty: 'Aucune action enregistrée.',
    unknown: 'Inconnu',
  },
  {
    title: 'Audit log',
    list: 'Actions in this account, newest first',
    when: 'When',
    who: 'Who',
    action: 'Action',
    target: 'Target',
    where: 'From',
    older: 'Older',
    newest: 'Newest',
    empty: 'No action recorded.',
    unknown: 'Unknown',
  },
);

interface AuditEntry {
  id: string;
  user_id: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

export function AuditLogPage() {
  const t = useTexts(texts);
  const language = useLanguage();
  const app = useApp();
  const merchantId = app.merchant?.merchant_id ?? '';
  const [cursor, setCursor] = useState<string | undefined>();
  const log = useApi(
    () =>
      dashboardApi<{ data: AuditEntry[]; has_more: boolean; next_cursor: string | null }>(`/merchants/${merchantId}/audit-log`, { query: { limit: 50, starting_after: cursor } }),
    [cursor],
  );
  // Names for the user ids (the log keeps ids: a removed member stays an id).
  const members = useApi(() => dashboardApi<{ data: { user_id: string; name: string; email: string }[] }>(`/merchants/${merchantId}/members`));
  const nameOf = (userId: string | null) => {
    const member = members.data?.data.find((m) => m.user_id === userId);
    return member ? `${member.name} <${member.email}>` : (userId ?? t('unknown'));
  };
  return (
    <Page title={t('title')}>
      {log.error ? (
        <ErrorMessage error={log.error} onRetry={log.reload} />
      ) : !log.data ? (
        <Loading />
      ) : log.data.data.length === 0 ? (
        <p class="muted">{t('empty')}</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">{t('list')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('when')}</th>
              <th scope="col">{t('who')}</th>
              <th scope="col">{t('action')}</th>
              <th scope="col">{t('target')}</th>
              <th scope="col">{t('where')}</th>
            </tr>
          </thead>
          <tbody>
            {log.data.data.map((entry) => (
              <tr key={entry.id}>
                <td data-label={t('when')}>{formatDateTime(entry.created_at, language)}</td>
                <td data-label={t('who')}>{nameOf(entry.user_id)}</td>
                <td data-label={t('action')}>
                  <code>{entry.action}</code>
                </td>
                <td data-label={t('target')}>{entry.target ?? '—'}</td>
                <td data-label={t('where')}>
                  {entry.ip ?? '—'}
                  {entry.user_agent ? <small class="muted"> {entry.user_agent}</small> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t('list')}>
        {cursor ? (
          <button type="button" class="button-secondary" onClick={() => setCursor(undefined)}>
            {t('newest')}
          </button>
        ) : null}
        {log.data?.has_more && log.data.next_cursor ? (
          <button type="button" class="button-secondary" onClick={() => setCursor(log.data?.next_cursor ?? undefined)}>
            {t('older')}
          </button>
        ) : null}
      </nav>
    </Page>
  );
}
