/**
 * The team page's pending invitations (docs/dashboard.md "Team and roles"): who was invited, as
 * what, by whom and until when, each revocable after a confirmation step. Shown to members who
 * manage the team; the server refuses the others too.
 */
import { dashboardApi } from '../../api.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage, Loading } from '../../components/feedback.js';
import { useAction } from '../../components/form.js';
import { useApi } from '../../components/use-api.js';
import { formatDateTime } from '../../format.js';
import { defineTexts, useLanguage, useTexts } from '../../i18n.js';

const texts = defineTexts(
  {
    title: 'Invitations en attente',
    email: 'E-mail',
    role: 'Rôle',
    invited_by: 'Invité par',
    expires: 'Expire le',
    actions: 'Action',
    revoke: 'Révoquer',
    revoke_question: 'Révoquer l’invitation de {email} ? Son lien ne fonctionnera plus.',
    none: 'Aucune invitation en attente.',
  },
  {
    title: 'Pending invitations',
    email: 'Email',
    role: 'Role',
    invited_by: 'Invited by',
    expires: 'Expires',
    actions: 'Action',
    revoke: 'Revoke',
    revoke_question: 'Revoke the invitation of {email}? Its link will stop working.',
    none: 'No pending invitations.',
  },
);

interface Invitation {
  id: string;
  email: string;
  role: string;
  invited_by: string | null;
  expires_at: string;
}

export function PendingInvitations({
  merchantId,
  refresh,
  roleName,
  memberName,
}: {
  merchantId: string;
  refresh: number;
  roleName(role: string): string;
  memberName(userId: string | null): string;
}) {
  const t = useTexts(texts);
  const language = useLanguage();
  const invitations = useApi(() => dashboardApi<{ data: Invitation[] }>(`/merchants/${merchantId}/invitations`, { query: { status: 'pending' } }), [refresh]);
  const revoke = useAction(async (id: string) => {
    await dashboardApi(`/merchants/${merchantId}/invitations/${id}`, { method: 'DELETE' });
    invitations.reload();
  });
  return (
    <section aria-labelledby="invitations-title">
      <h2 id="invitations-title">{t('title')}</h2>
      <ErrorMessage error={revoke.error} />
      {invitations.error ? (
        <ErrorMessage error={invitations.error} onRetry={invitations.reload} />
      ) : !invitations.data ? (
        <Loading />
      ) : invitations.data.data.length === 0 ? (
        <p class="muted">{t('none')}</p>
      ) : (
        <table class="table">
          <caption class="visually-hidden">{t('title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('email')}</th>
              <th scope="col">{t('role')}</th>
              <th scope="col">{t('invited_by')}</th>
              <th scope="col">{t('expires')}</th>
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {invitations.data.data.map((invitation) => (
              <tr key={invitation.id}>
                <td data-label={t('email')}>{invitation.email}</td>
                <td data-label={t('role')}>{roleName(invitation.role)}</td>
                <td data-label={t('invited_by')}>{memberName(invitation.invited_by)}</td>
                <td data-label={t('expires')}>{formatDateTime(invitation.expires_at, language)}</td>
                <td data-label={t('actions')}>
                  <ConfirmButton
                    label={t('revoke')}
                    danger
                    busy={revoke.busy}
                    question={t('revoke_question', { email: invitation.email })}
                    onConfirm={() => void revoke.run(invitation.id)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
