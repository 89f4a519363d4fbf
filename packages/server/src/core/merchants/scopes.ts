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
] as const;
export type Scope = (typeof scopes)[number];

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

/** An empty list grants everything; otherwise the exact scope must be listed. */
export function grants(keyScopes: readonly Scope[], needed: Scope): boolean {
  return keyScopes.length === 0 || keyScopes.includes(needed);
}
