import { Type } from 'typebox';
import { invitationStatuses } from '../../core/dashboard/invitation.js';
import { roles } from '../../core/dashboard/permissions.js';

// Example values (docs/dashboard.md "Team and roles"): clearly fake ids.
const INVITATION_ID = '0193d0e1-2f3a-7b4c-8d5e-6f7a8b9c0d1e';
const MERCHANT_ID = '0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f';
const INVITER_ID = '0193b1c2-3d4e-7f50-8162-7a8b9c0d1e2f';

const Id = Type.String({ minLength: 1, maxLength: 64 });
export const InvitationParams = Type.Object({ merchantId: Id, invitationId: Id });

export const InvitationQuery = Type.Object(
  { status: Type.Optional(Type.Enum(invitationStatuses, { description: 'Only the invitations in this status now (the team page asks for `pending`).' })) },
  { additionalProperties: false },
);

const invitationExample = {
  object: 'invitation',
  id: INVITATION_ID,
  merchant_id: MERCHANT_ID,
  email: 'koffi.mensah@example.com',
  role: 'finance',
  status: 'pending',
  invited_by: INVITER_ID,
  created_at: '2026-06-02T08:15:00.000Z',
  expires_at: '2026-06-09T08:15:00.000Z',
  accepted_at: null,
  revoked_at: null,
  revoked_by: null,
};

const Instant = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const InvitationObject = Type.Object(
  {
    object: Type.Literal('invitation'),
    id: Type.String(),
    merchant_id: Type.String(),
    email: Type.String({ description: 'The invited address.' }),
    role: Type.Enum(roles),
    status: Type.Enum(invitationStatuses, {
      description:
        'pending (its link works), accepted, revoked, expired (7 days after it was sent), lapsed (whoever sent it was removed or may no longer invite to this role). Only a pending invitation can be accepted or revoked.',
    }),
    invited_by: Type.Union([Type.String(), Type.Null()], { description: 'The member who sent it.' }),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
    accepted_at: Instant,
    revoked_at: Instant,
    revoked_by: Type.Union([Type.String(), Type.Null()], { description: 'Who revoked it.' }),
  },
  { title: 'DashboardInvitation', examples: [invitationExample] },
);

export const InvitationList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(InvitationObject) },
  { title: 'DashboardInvitationList', examples: [{ object: 'list', data: [invitationExample] }] },
);
