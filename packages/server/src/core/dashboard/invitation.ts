import { AkweError } from '../errors/index.js';
import type { EmailTokenRecord } from './dashboard-user.js';
import { mayAssign, type Role } from './permissions.js';

/**
 * Invitations (docs/dashboard.md "Team and roles"): an emailed token that makes its holder a member
 * with a role. It works for 7 days, until it is accepted or revoked, and only while whoever sent it
 * is still a member allowed to invite to that role: removing or demoting the inviter voids it.
 */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

/** `lapsed`: the inviter was removed, or lost the right to invite to this role. */
export const invitationStatuses = ['pending', 'accepted', 'revoked', 'expired', 'lapsed'] as const;
export type InvitationStatus = (typeof invitationStatuses)[number];

export interface Invitation {
  id: string;
  merchantId: string;
  email: string;
  role: Role;
  status: InvitationStatus;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
}

/** Whether a member with this role (undefined: no longer a member) may invite to `role`. */
export const inviterMayInvite = (inviterRole: Role | undefined, role: Role): boolean => inviterRole !== undefined && mayAssign(inviterRole, undefined, role);

/** The invitation's status at `now`, given its inviter's role in the merchant now. */
export function invitationStatus(token: EmailTokenRecord, inviterRole: Role | undefined, now: string): InvitationStatus {
  if (token.usedAt !== null) return 'accepted';
  if (token.revokedAt !== null) return 'revoked';
  if (token.expiresAt <= now) return 'expired';
  if (token.role === null || !inviterMayInvite(inviterRole, token.role)) return 'lapsed';
  return 'pending';
}

/** Refuses an invitation that is not pending at `now`, with the reason's own code. */
export function checkAcceptable(token: EmailTokenRecord, inviterRole: Role | undefined, now: string): void {
  const status = invitationStatus(token, inviterRole, now);
  if (status === 'accepted') throw new AkweError('invalid_email_token');
  if (status === 'revoked') throw new AkweError('invitation_revoked');
  if (status === 'expired') throw new AkweError('invitation_expired');
  if (status === 'lapsed') throw new AkweError('invitation_inviter_not_allowed');
}

export function invitationOf(token: EmailTokenRecord, inviterRole: Role | undefined, now: string): Invitation {
  return {
    id: token.id,
    merchantId: token.merchantId ?? '',
    email: token.email,
    role: token.role ?? 'viewer',
    status: invitationStatus(token, inviterRole, now),
    invitedBy: token.invitedBy,
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
    acceptedAt: token.usedAt,
    revokedAt: token.revokedAt,
    revokedBy: token.revokedBy,
  };
}
