/** Every permission a key can carry (the contract's collect scopes, then ours for payouts, bulk, transfers, settlements and webhooks). */
export const scopes = [
  'collect:read',
  'collect:write',
  'collect:refund',
  'payout:read',
  'payout:write',
  'bulk:read',
  'bulk:write',
  'transfers:read',
  'transfers:write',
  'settlements:read',
  'settlements:write',
  'webhooks:read',
  'webhooks:write',
  'payment_links:read',
  'payment_links:write',
] as const;
export type Scope = (typeof scopes)[number];

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

/** An empty list grants everything; otherwise the exact scope must be listed. */
export function grants(keyScopes: readonly Scope[], needed: Scope): boolean {
  return keyScopes.length === 0 || keyScopes.includes(needed);
}

/**
 * The scopes that send money out of the merchant's balance: refunds, payouts, bulk payments,
 * transfers and settlements. In live they need an active merchant whose KYC is validated, so a
 * live key made in a dashboard session before the validation holds none of them (docs/decisions.md).
 */
export const moneyOutScopes: readonly Scope[] = ['collect:refund', 'payout:write', 'bulk:write', 'transfers:write', 'settlements:write'];

/** The scopes a key really holds: its list, or every scope when the list is empty. */
export function heldScopes(keyScopes: readonly Scope[]): Scope[] {
  return keyScopes.length === 0 ? [...scopes] : [...keyScopes];
}
