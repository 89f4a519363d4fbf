import type { Scope } from '../merchants/scopes.js';
/**
 * Who may do what in a merchant's dashboard (docs/dashboard.md, "Roles"). One table, action ->
 * roles, read by the server on every dashboard request; the docs' table and the tests follow it.
 */
export const roles = ['owner', 'admin', 'developer', 'finance', 'viewer'] as const;
export type Role = (typeof roles)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (roles as readonly string[]).includes(value);
}

const everyone: readonly Role[] = roles;

export const permissions = {
  /** See the merchant's data: payments, payouts, balances, members, API keys (never their secrets), webhook endpoints. */
  read: everyone,
  /** Create and revoke API keys. */
  'keys.manage': ['owner', 'admin', 'developer'],
  /** Add, change and remove webhook endpoints; resend events. */
  'webhooks.manage': ['owner', 'admin', 'developer'],
  /** Create, confirm and cancel payments (money in): what an integration does, so developers too. */
  'payments.create': ['owner', 'admin', 'developer', 'finance'],
  'refunds.create': ['owner', 'admin', 'finance'],
  'payouts.create': ['owner', 'admin', 'finance'],
  /** Invite people, change their roles, remove them; read the audit log. */
  'team.manage': ['owner', 'admin'],
  'kyc.submit': ['owner', 'admin'],
  /** Approve or reject another member's live money-out above the threshold (maker-checker). */
  'approvals.decide': ['owner', 'admin', 'finance'],
  /** Set the approval thresholds. */
  'approvals.manage': ['owner', 'admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof permissions;

export const actions = Object.keys(permissions) as Action[];

export function may(role: Role, action: Action): boolean {
  return (permissions[action] as readonly Role[]).includes(role);
}

/** The actions a role grants, in the table's order (the dashboard shows or hides controls by it). */
export function actionsOf(role: Role): Action[] {
  return actions.filter((action) => may(role, action));
}

/**
 * Granting or taking away `owner` (by invitation, role change or removal) is for owners only: an
 * admin manages the team but cannot make themself or anyone else an owner, nor demote one.
 */
export function mayAssign(actor: Role, from: Role | undefined, to: Role | undefined): boolean {
  if (!may(actor, 'team.manage')) return false;
  return actor === 'owner' || (from !== 'owner' && to !== 'owner');
}

/**
 * The API scopes a dashboard session carries on the merchant API (docs/dashboard.md, "The API from
 * the dashboard"): what the role may do, in the API's words. Never empty (an empty list would grant
 * every scope): every role reads.
 */
const scopesOfAction: Record<Action, readonly Scope[]> = {
  read: ['collect:read', 'payout:read', 'bulk:read', 'transfers:read', 'settlements:read', 'webhooks:read', 'payment_links:read'],
  'keys.manage': [],
  'webhooks.manage': ['webhooks:write'],
  'payments.create': ['collect:write', 'payment_links:write'],
  'refunds.create': ['collect:refund'],
  'payouts.create': ['payout:write', 'bulk:write', 'transfers:write', 'settlements:write'],
  'team.manage': [],
  'kyc.submit': [],
  'approvals.decide': [],
  'approvals.manage': [],
};

export function scopesOf(role: Role): Scope[] {
  return [...new Set(actionsOf(role).flatMap((action) => scopesOfAction[action]))];
}
