/** True when a write failed on a CHECK constraint (SQLite or PostgreSQL), e.g. a balance below zero. */
export function isCheckViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23514' || code === 'SQLITE_CONSTRAINT_CHECK';
}
