/** Small helpers to drive the collect API in tests, always through HTTP. */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { newId } from '../../src/core/shared/ids.js';
import type { AkweDatabase } from '../../src/storage/database.js';
import type { Environment } from '../../src/core/shared/environment.js';
import { eventFromRow, scopedEvents } from '../../src/storage/repositories/event-repository.js';

export function collectClient(app: FastifyInstance, key: string) {
  const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });
  return {
    create(body: Record<string, unknown>, idempotencyKey: string = newId()) {
      return app.inject({ method: 'POST', url: '/api/v1/collect/payments', headers: headers({ 'idempotency-key': idempotencyKey }), payload: body });
    },
    async createOk(body: Record<string, unknown>) {
      const res = await this.create(body);
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    },
    get(ref: string, query = '') {
      return app.inject({ method: 'GET', url: `/api/v1/collect/payments/${encodeURIComponent(ref)}${query}`, headers: headers() });
    },
    listRefunds(ref: string) {
      return app.inject({ method: 'GET', url: `/api/v1/collect/payments/${encodeURIComponent(ref)}/refunds`, headers: headers() });
    },
    /** Refunds get a fresh Idempotency-Key (mandatory there) unless `idempotencyKey` is given; `null` sends none. */
    post(ref: string, action: 'confirm' | 'cancel' | 'pay' | 'refunds', body?: Record<string, unknown>, idempotencyKey?: string | null) {
      const key = idempotencyKey === undefined ? (action === 'refunds' ? newId() : undefined) : (idempotencyKey ?? undefined);
      return app.inject({
        method: 'POST',
        url: `/api/v1/collect/payments/${encodeURIComponent(ref)}/${action}`,
        headers: headers(key === undefined ? {} : { 'idempotency-key': key }),
        ...(body ? { payload: body } : {}),
      });
    },
  };
}

export const direct = (overrides: Record<string, unknown> = {}) => ({
  reference: `ORDER-${newId()}`,
  amount: 3000,
  currency: 'XOF',
  country: 'BJ',
  mode: 'direct',
  operator: 'mtn_bj',
  customer: { phone: '0197000000' },
  ...overrides,
});

export const hosted = (overrides: Record<string, unknown> = {}) => ({
  reference: `CHK-${newId()}`,
  amount: 5000,
  currency: 'XOF',
  country: 'CI',
  mode: 'hosted',
  description: 'Abonnement mensuel',
  ...overrides,
});

/** The event types stored for one payment, in order, with the status each carried. */
export async function eventsOf(database: AkweDatabase, paymentId: string): Promise<string[]> {
  // A payment's events and its refunds' carry the payment's reference (a patched event's payload does not hold the id).
  const payment = await database.db.selectFrom('payments').select(['merchant_id', 'environment', 'reference']).where('id', '=', paymentId).executeTakeFirstOrThrow();
  const scope = { merchantId: payment.merchant_id, environment: payment.environment as Environment };
  const rows = await scopedEvents(database.db, scope).where('subject_reference', '=', payment.reference).orderBy('id').execute();
  return rows
    .map(eventFromRow)
    .map(({ type, subject }) => (subject.kind === 'refund' ? `${type}:${subject.refund.status}` : `${type}:${(subject as { payment: { status: string } }).payment.status}`));
}
