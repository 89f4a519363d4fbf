/**
 * `akwe trigger <event-type>`: the sandbox objects that produce each event, made through the SDK
 * (docs/payouts.md "Test and live", docs/failure-codes.md: a reference holding FAIL fails).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Akwe } from '@akwe/sdk';

export interface Created {
  what: 'payout' | 'payment' | 'refund' | 'transfer';
  id: string;
  reference: string;
  /** What follows, in words. */
  note: string;
}

export interface TriggerOptions {
  /** transfer.sent: the merchant receiving the transfer. */
  receiver?: string;
}

type Trigger = (client: Akwe, options: TriggerOptions) => Promise<Created>;

/** A sandbox test number (MTN Benin) that the sandbox answers normally. */
const TEST_PHONE = '0197000000';
const PAYMENT_WAIT_MS = 30_000;
const PAYMENT_POLL_MS = 500;

export const uniqueReference = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`.toUpperCase();

function payout(prefix: string, note: string): Trigger {
  return async (client) => {
    // Payouts speak centimes: 100 000 is 1 000 XOF.
    const created = await client.payouts.create({ reference: uniqueReference(prefix), amount: 100_000, phone: TEST_PHONE, country: 'BJ', operator: 'mtn_bj' });
    return { what: 'payout', id: created.id, reference: created.reference, note };
  };
}

function payment(client: Akwe, reference: string) {
  return client.payments.create({ reference, amount: 3000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: TEST_PHONE } });
}

function paymentTrigger(prefix: string, note: string): Trigger {
  return async (client) => {
    const created = await payment(client, uniqueReference(prefix));
    return { what: 'payment', id: created.id, reference: created.reference ?? '', note };
  };
}

/** A payment, once the sandbox has completed it (a refund needs a completed payment). */
async function completedPayment(client: Akwe): Promise<{ id: string; reference: string }> {
  const reference = uniqueReference('trigger');
  const created = await payment(client, reference);
  for (let waited = 0; waited < PAYMENT_WAIT_MS; waited += PAYMENT_POLL_MS) {
    const { status } = await client.payments.retrieve(reference);
    if (status === 'completed') return { id: created.id, reference };
    if (['failed', 'cancelled', 'expired'].includes(status)) throw new Error(`the sandbox payment ${reference} ended ${status}`);
    await sleep(PAYMENT_POLL_MS);
  }
  throw new Error(`the sandbox payment ${reference} did not complete within ${PAYMENT_WAIT_MS / 1000} s`);
}

export const triggers: Record<string, Trigger> = {
  'payout.completed': payout('trigger', 'payout.initiated now, payout.completed after the sandbox delay (about 2 s)'),
  'payout.failed': payout('trigger-fail', 'payout.initiated now, payout.failed after the sandbox delay'),
  'collect.payment.completed': paymentTrigger('trigger', 'collect.payment.created now, collect.payment.completed when the sandbox answers'),
  'collect.payment.failed': paymentTrigger('trigger-fail', 'collect.payment.created now, collect.payment.failed when the sandbox answers'),
  'collect.refund.completed': async (client) => {
    const paid = await completedPayment(client);
    const refund = await client.refunds.create(paid.reference, { amount: 1000 });
    return { what: 'refund', id: refund.id, reference: paid.reference, note: 'collect.refund.created now, collect.refund.completed when the sandbox answers' };
  },
  'transfer.sent': async (client, { receiver }) => {
    if (!receiver) throw new Error('transfer.sent needs --receiver <merchant id>: the merchant_id of another merchant of this server');
    const reference = uniqueReference('trigger');
    const transfer = await client.transfers.create({ receiver, amount_minor: 1000, currency: 'XOF', reference });
    return { what: 'transfer', id: transfer.id, reference, note: 'transfer.sent now (the receiver gets transfer.received)' };
  },
};
