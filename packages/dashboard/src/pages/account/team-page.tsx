import { dashboardApi } from '../../api.js';
import { useApp, useCan } from '../../app-context.js';
import { commonTexts } from '../../common-texts.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { ErrorMessage, Loading, Notice } from '../../components/feedback.js';
import { Field, SelectField, formValues, useAction } from '../../components/form.js';
import { Page } from '../../components/page.js';
import { useApi } from '../../components/use-api.js';
import { defineTexts, useTexts } from '../../i18n.js';
import { useState } from 'preact/hooks';
import { PendingInvitations } from './pending-invitations.js';

const texts = defineTexts(
  {
    title: 'Équipe',
    members: 'Membres',
    name: 'Nom',
    email: 'E-mail',
    role: 'Rôle',
    invite: 'Inviter',
    invite_title: 'Inviter une personne',
    invited: 'Invitation envoyée à {email}.',
    remove: 'Retirer',
    remove_question: 'Retirer {name} de l’équipe ?',
    change_role: 'Rôle de {name}',
    you: '(vous)',
    owner: 'Propriétaire',
    admin: 'Administrateur',
    developer: 'Développeur',
    finance: 'Finance',
    viewer: 'Lecture seule',
  },
  {
    title: 'Team',
    members: 'Members',
    name: 'Name',
    email: 'Email',
    role: 'Role',
    invite: 'Invite',
    invite_title: 'Invite someone',
    invited: 'Invitation sent to {email}.',
    remove: 'Remove',
    remove_question: 'Remove {name} from the team?',
    change_role: 'Role of {name}',
    you: '(you)',
    owner: 'Owner',
    admin: 'Admin',
    developer: 'Developer',
    finance: 'Finance',
    viewer: 'Viewer',
  },
);

const roles = ['owner', 'admin', 'developer', 'finance', 'viewer'] as const;

interface Member {
  user_id: string;
  email: string;
  name: string;
  role: (typeof roles)[number];
}

export function TeamPage() {
  const t = useTexts(texts);
  const c = useTexts(commonTexts);
  const app = useApp();
  const can = useCan();
  const merchantId = app.merchant?.merchant_id ?? '';
  const members = useApi(() => dashboardApi<{ data: Member[] }>(`/merchants/${merchantId}/members`));
  const [invited, setInvited] = useState<string | undefined>();
  const invite = useAction(async (values: Record<string, string>) => {
    await dashboardApi(`/merchants/${merchantId}/invitations`, { method: 'POST', body: { email: values.email, role: values.role } });
    setInvited(values.email);
    setInvitationsSent((count) => count + 1);
  });
  const [invitationsSent, setInvitationsSent] = useState(0);
  const change = useAction(async (userId: string, body: { role: string } | undefined) => {
    await dashboardApi(`/merchants/${merchantId}/members/${userId}`, body ? { method: 'PATCH', body } : { method: 'DELETE' });
    members.reload();
  });
  const manage = can('team.manage');
  return (
    <Page title={t('title')}>
      <h2>{t('members')}</h2>
      <ErrorMessage error={change.error} />
      {members.error ? (
        <ErrorMessage error={members.error} onRetry={members.reload} />
      ) : !members.data ? (
        <Loading />
      ) : (
        <table class="table">
          <caption class="visually-hidden">{t('members')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('name')}</th>
              <th scope="col">{t('email')}</th>
              <th scope="col">{t('role')}</th>
              {manage ? <th scope="col">{c('details')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {members.data.data.map((member) => {
              const self = member.user_id === app.me.user.id;
              return (
                <tr key={member.user_id}>
                  <td data-label={t('name')}>
                    {member.name} {self ? t('you') : ''}
                  </td>
                  <td data-label={t('email')}>{member.email}</td>
                  <td data-label={t('role')}>
                    {manage && !self ? (
                      <select
                        aria-label={t('change_role', { name: member.name })}
                        value={member.role}
                        onChange={(event) => void change.run(member.user_id, { role: (event.currentTarget as HTMLSelectElement).value })}
                      >
                        {roles.map((role) => (
                          <option value={role}>{t(role)}</option>
                        ))}
                      </select>
                    ) : (
                      t(member.role)
                    )}
                  </td>
                  {manage ? (
                    <td data-label={c('details')}>
                      {self ? null : (
                        <ConfirmButton
                          label={t('remove')}
                          danger
                          question={t('remove_question', { name: member.name })}
                          onConfirm={() => void change.run(member.user_id, undefined)}
                        />
                      )}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {manage ? (
        <section aria-labelledby="invite-title">
          <h2 id="invite-title">{t('invite_title')}</h2>
          {invited ? <Notice kind="success">{t('invited', { email: invited })}</Notice> : null}
          <form class="inline-form" onSubmit={(event) => void invite.run(formValues(event))}>
            <Field label={t('email')} name="email" type="email" required error={invite.fieldError('email')} />
            <SelectField label={t('role')} name="role" defaultValue="viewer">
              {roles.map((role) => (
                <option value={role}>{t(role)}</option>
              ))}
            </SelectField>
            <button type="submit" class="button" disabled={invite.busy}>
              {t('invite')}
            </button>
          </form>
          <ErrorMessage error={invite.error} />
        </section>
      ) : null}
      {manage ? (
        <PendingInvitations
          merchantId={merchantId}
          refresh={invitationsSent}
          roleName={(role) => (roles.includes(role as Member['role']) ? t(role as Member['role']) : role)}
          memberName={(userId) => members.data?.data.find((member) => member.user_id === userId)?.name ?? userId ?? ''}
        />
      ) : null}
    </Page>
  );
}
