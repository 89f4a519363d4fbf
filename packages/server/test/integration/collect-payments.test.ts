/**
 * Collect, contract 2026-06, over HTTP on every database: each row of the contract's transition table,
 * each sandbox rule and its precedence, OTP codes, hosted checkout, cancel, errors, live behaviour,
 * and exactly one event per status change.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { collectClient, direct, eventsOf, hosted } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`collect payments on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let api: ReturnType<typeof collectClient>;
    let live: ReturnType<typeof collectClient>;

    before(async () => {
      t = await buildTestApp(target);
      const merchant = await t.newMerchant();
      api = collectClient(t.app, merchant.testKey);
      live = collectClient(t.app, merchant.liveKey);
    });
    after(() => t.close());

    const events = (id: string) => eventsOf(t.services.database, id);

    describe("the contract's transition table", () => {
      it('direct, operator without OTP: push sent (processing), then the sandbox approval completes it', async () => {
        const payment = await api.createOk(direct());
        assert.equal(payment.status, 'completed');
        assert.deepEqual(await events(payment.id), ['collect.payment.created:pending', 'collect.payment.processing:processing', 'collect.payment.completed:completed']);
      });

      it('direct, operator requiring OTP: awaiting_otp with a confirm_otp next action', async () => {
        const payment = await api.createOk(direct({ country: 'CI', operator: 'orange_ci', customer: { phone: '0700000000' } }));
        assert.equal(payment.status, 'awaiting_otp');
        assert.equal(payment.next_action.type, 'confirm_otp');
        assert.match(payment.next_action.confirm_url, new RegExp(`/api/v1/collect/payments/${payment.reference}/confirm$`));
        assert.deepEqual(await events(payment.id), ['collect.payment.created:pending', 'collect.payment.awaiting_otp:awaiting_otp']);
      });

      it('hosted: awaiting_payment with an absolute checkout_url built from PUBLIC_URL', async () => {
        const payment = await api.createOk(hosted());
        assert.equal(payment.status, 'awaiting_payment');
        assert.match(payment.checkout_url, /^http:\/\/localhost:8080\/checkout\/[A-Za-z0-9_-]{43}$/);
        assert.deepEqual(payment.next_action, { type: 'redirect_to_checkout', url: payment.checkout_url });
        assert.equal(payment.operator, null);
        const page = await t.app.inject({ url: new URL(payment.checkout_url).pathname });
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /5[\s\u202f\u00a0]000[\s\u00a0]FCFA/);
      });

      for (const [otp, status] of [
        ['123456', 'completed'],
        ['000000', 'failed'],
        ['111111', 'pending'],
      ] as const) {
        it(`confirm with sandbox code ${otp} gives ${status}`, async () => {
          const payment = await api.createOk(direct({ country: 'CI', operator: 'orange_ci', customer: { phone: '0700000000' } }));
          const res = await api.post(payment.reference, 'confirm', { otp });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.json().status, status);
          assert.deepEqual(await events(payment.id), ['collect.payment.created:pending', 'collect.payment.awaiting_otp:awaiting_otp', `collect.payment.${status}:${status}`]);
        });
      }

      it('pay simulates the customer on a hosted checkout, with the sandbox rules on the payer’s phone', async () => {
        const ok = await api.createOk(hosted());
        const paid = await api.post(ok.reference, 'pay', { phone: '0500000000', operator: 'mtn_ci' });
        assert.equal(paid.statusCode, 200, paid.body);
        assert.equal(paid.json().status, 'completed');
        assert.equal(paid.json().operator, 'mtn_ci');
        assert.equal(paid.json().customer.phone, '+2250500000000');
        assert.deepEqual(await events(ok.id), ['collect.payment.created:awaiting_payment', 'collect.payment.processing:processing', 'collect.payment.completed:completed']);

        const declined = await api.createOk(hosted());
        assert.equal((await api.post(declined.reference, 'pay', { phone: '0700000001', operator: 'mtn_ci' })).json().status, 'failed');
      });
    });

    describe('sandbox outcome rules', () => {
      const cases: [string, Record<string, unknown>, string][] = [
        ['default number completes', {}, 'completed'],
        ['reference with FAIL fails', { reference: `X-FAIL-${newId()}` }, 'failed'],
        ['reference keyword in any letter case', { reference: `x-fail-${newId()}` }, 'failed'],
        ['reference with PENDING stays pending', { reference: `X-PENDING-${newId()}` }, 'pending'],
        ['reference with CANCEL is cancelled', { reference: `X-CANCEL-${newId()}` }, 'cancelled'],
        ['phone ending 0001 fails', { customer: { phone: '0197000001' } }, 'failed'],
        ['phone ending 0002 stays pending', { customer: { phone: '0197000002' } }, 'pending'],
        ['phone ending 0003 is cancelled', { customer: { phone: '0197000003' } }, 'cancelled'],
        ['phone ending 0000 (the success number) completes', { customer: { phone: '+229 01 97 00 00 00' } }, 'completed'],
        ['a keyword beats a phone suffix', { reference: `X-FAIL-${newId()}`, customer: { phone: '0197000002' } }, 'failed'],
        ['FAIL is checked before CANCEL', { reference: `X-CANCEL-FAIL-${newId()}` }, 'failed'],
        ['an OTP operator beats every keyword', { reference: `X-FAIL-${newId()}`, country: 'CI', operator: 'orange_ci', customer: { phone: '0700000001' } }, 'awaiting_otp'],
        ['Togo aliases resolve to the canonical operator', { country: 'TG', operator: 'togocom_tg', customer: { phone: '90000000' } }, 'completed'],
      ];
      for (const [rule, overrides, status] of cases) {
        it(rule, async () => {
          const payment = await api.createOk(direct(overrides));
          assert.equal(payment.status, status);
        });
      }

      it('answers with the canonical slug for an alias', async () => {
        const payment = await api.createOk(direct({ country: 'TG', operator: 'moov_tg', customer: { phone: '96000000' } }));
        assert.equal(payment.operator, 'flooz_tg');
      });

      it('takes the country in any case, like operator slugs, and answers its canonical code', async () => {
        for (const country of ['bj', 'Bj', 'BJ']) {
          const payment = await api.createOk(direct({ country, operator: 'MTN_BJ' }));
          assert.equal(payment.country, 'BJ');
          assert.equal(payment.operator, 'mtn_bj');
          assert.equal(payment.customer.phone, '+2290197000000');
        }
        const unknown = await api.create(direct({ country: 'zz' }));
        assert.equal(unknown.statusCode, 400);
        assert.equal(unknown.json().error.field, 'country');
      });
    });

    describe('OTP confirmation', () => {
      const otpPayment = () => api.createOk(direct({ country: 'CI', operator: 'orange_ci', customer: { phone: '0700000000' } }));

      it('refuses a wrong code with invalid_otp and fails the payment at the third wrong code', async () => {
        const payment = await otpPayment();
        for (const attempt of [1, 2]) {
          const res = await api.post(payment.reference, 'confirm', { otp: '999999' });
          assert.equal(res.statusCode, 400);
          assert.equal(res.json().error.code, 'invalid_otp');
          assert.equal((await api.get(payment.reference)).json().status, 'awaiting_otp', `after wrong code ${attempt}`);
        }
        const third = await api.post(payment.reference, 'confirm', { otp: '999999' });
        assert.equal(third.statusCode, 400);
        assert.equal((await api.get(payment.reference)).json().status, 'failed');
        const again = await api.post(payment.reference, 'confirm', { otp: '123456' });
        assert.equal(again.statusCode, 409);
        assert.equal(again.json().error.code, 'payment_not_confirmable');
        assert.deepEqual(await events(payment.id), ['collect.payment.created:pending', 'collect.payment.awaiting_otp:awaiting_otp', 'collect.payment.failed:failed']);
      });

      it('refuses a code that is not 4 to 8 digits as a validation error', async () => {
        const payment = await otpPayment();
        for (const otp of ['12a456', '123', '123456789']) {
          const res = await api.post(payment.reference, 'confirm', { otp });
          assert.equal(res.statusCode, 400);
          assert.equal(res.json().error.code, 'validation_error');
          assert.equal(res.json().error.field, 'otp');
        }
      });

      it('refuses to confirm a payment that does not wait for a code', async () => {
        const payment = await api.createOk(direct());
        const res = await api.post(payment.reference, 'confirm', { otp: '123456' });
        assert.equal(res.statusCode, 409);
        assert.equal(res.json().error.code, 'payment_not_confirmable');
      });
    });

    describe('cancel', () => {
      it('cancels a payment from each non-final state, with one cancelled event', async () => {
        const waiting = [
          await api.createOk(direct({ country: 'CI', operator: 'orange_ci', customer: { phone: '0700000000' } })),
          await api.createOk(hosted()),
          await api.createOk(direct({ reference: `P-PENDING-${newId()}` })),
        ];
        for (const payment of waiting) {
          const res = await api.post(payment.id, 'cancel');
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.json().status, 'cancelled');
          assert.equal(res.json().next_action, null);
          const kinds = await events(payment.id);
          assert.equal(kinds.filter((k) => k.startsWith('collect.payment.cancelled')).length, 1);
        }
      });

      it('refuses to cancel a final payment', async () => {
        const payment = await api.createOk(direct());
        const res = await api.post(payment.reference, 'cancel');
        assert.equal(res.statusCode, 409);
        assert.equal(res.json().error.code, 'payment_not_cancellable');
      });
    });

    describe('pay', () => {
      it('exists only in the test environment', async () => {
        const res = await live.post('ANY-REF', 'pay', { phone: '0700000000', operator: 'mtn_ci' });
        assert.equal(res.statusCode, 403);
        assert.equal(res.json().error.code, 'sandbox_only');
      });

      it('refuses a direct payment and a checkout already paid', async () => {
        const directPayment = await api.createOk(direct());
        assert.equal((await api.post(directPayment.reference, 'pay', { phone: '0197000000', operator: 'mtn_bj' })).json().error.code, 'payment_not_payable');
        const checkout = await api.createOk(hosted());
        assert.equal((await api.post(checkout.reference, 'pay', { phone: '0500000000', operator: 'mtn_ci' })).statusCode, 200);
        const twice = await api.post(checkout.reference, 'pay', { phone: '0500000000', operator: 'mtn_ci' });
        assert.equal(twice.statusCode, 409);
      });

      it('validates the payer’s operator and phone against the payment’s country', async () => {
        const checkout = await api.createOk(hosted());
        assert.equal((await api.post(checkout.reference, 'pay', { phone: '0500000000', operator: 'mtn_bj' })).json().error.code, 'invalid_operator');
        assert.equal((await api.post(checkout.reference, 'pay', { phone: '90000000', operator: 'mtn_ci' })).json().error.code, 'invalid_phone');
        assert.equal((await api.get(checkout.reference)).json().status, 'awaiting_payment');
      });
    });

    describe('reading payments', () => {
      it('finds a payment by reference and by id, with the fields the contract requires', async () => {
        const created = await api.createOk(direct());
        for (const key of [created.reference, created.id]) {
          const res = await api.get(key);
          assert.equal(res.statusCode, 200);
          const body = res.json();
          for (const field of ['status', 'amount', 'currency', 'country', 'mode', 'operator', 'next_action']) assert.ok(field in body, field);
          assert.equal(body.object, 'collect.payment');
          assert.equal(body.api_version, '2026-06');
          assert.equal(body.environment, 'test');
          assert.equal(body.sandbox, true);
          assert.equal(body.idempotent_replay, false);
          assert.equal(body.amount, 3000);
          assert.equal(body.amount_minor, 300000);
          assert.equal(body.customer.phone, '+2290197000000');
        }
      });

      it('answers 404 not_found for an unknown payment', async () => {
        const res = await api.get('NOPE-404');
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().error.code, 'not_found');
      });
    });

    describe('validation and business errors', () => {
      const expectError = async (body: Record<string, unknown>, status: number, code: string, field?: string) => {
        const res = await api.create(body);
        assert.equal(res.statusCode, status, res.body);
        assert.equal(res.json().error.code, code);
        if (field) assert.equal(res.json().error.field, field);
      };

      it('invalid_operator for an unknown operator, another country’s operator, or an unknown country', async () => {
        await expectError(direct({ operator: 'airtel_bj' }), 400, 'invalid_operator', 'operator');
        await expectError(direct({ operator: 'mtn_ci' }), 400, 'invalid_operator', 'operator');
        await expectError(direct({ country: 'SN' }), 400, 'invalid_operator', 'country');
      });

      it('invalid_phone for an old 8-digit Benin number, with a message that says so', async () => {
        const res = await api.create(direct({ customer: { phone: '97000000' } }));
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error.code, 'invalid_phone');
        assert.match(res.json().error.message, /10 digits since 30 November 2024/);
      });

      it('invalid_phone for a number of another country', async () => {
        await expectError(direct({ customer: { phone: '+2250700000000' } }), 400, 'invalid_phone', 'customer.phone');
      });

      it('amount_too_low below 100 XOF, including zero and negatives', async () => {
        for (const amount of [99, 0, -100]) await expectError(direct({ amount }), 400, 'amount_too_low', 'amount');
        assert.equal((await api.create(direct({ amount: 100 }))).statusCode, 201);
      });

      it('amount_too_high above the operator’s maximum', async () => {
        await expectError(direct({ amount: 2_000_001 }), 400, 'amount_too_high', 'amount');
      });

      it('unsupported_currency for XAF in a country that takes XOF', async () => {
        await expectError(direct({ currency: 'XAF' }), 400, 'unsupported_currency', 'currency');
      });

      it('defaults the currency to the country’s', async () => {
        const { currency: _c, ...withoutCurrency } = direct();
        assert.equal((await api.createOk(withoutCurrency)).currency, 'XOF');
      });

      it('validation_error for a missing field, a string amount, an unknown mode or field, and bad bounds', async () => {
        const { reference: _r, ...noReference } = direct();
        await expectError(noReference, 400, 'validation_error', 'reference');
        await expectError(direct({ amount: '3000' }), 400, 'validation_error', 'amount');
        await expectError(direct({ mode: 'ussd' }), 400, 'validation_error', 'mode');
        await expectError(direct({ amout: 3000 }), 400, 'validation_error', 'amout');
        await expectError(direct({ expires_in_seconds: 59 }), 400, 'validation_error', 'expires_in_seconds');
        await expectError(direct({ expires_in_seconds: 86_401 }), 400, 'validation_error', 'expires_in_seconds');
        await expectError(direct({ reference: 'has space' }), 400, 'validation_error', 'reference');
      });

      it('validation_error when a direct payment lacks its operator or phone', async () => {
        const { operator: _o, ...noOperator } = direct();
        await expectError(noOperator, 400, 'validation_error', 'operator');
        const { customer: _c, ...noPhone } = direct();
        await expectError(noPhone, 400, 'validation_error', 'customer.phone');
      });

      it('callback_url must be HTTPS (plain HTTP only for test payments on a development server)', async () => {
        await expectError(direct({ callback_url: 'ftp://example.com/hook' }), 400, 'validation_error', 'callback_url');
        assert.equal((await api.create(direct({ callback_url: 'http://localhost:9999/hook' }))).statusCode, 201);
        const https = await api.createOk(direct({ callback_url: 'https://shop.example/hook' }));
        assert.equal(https.callback_url, 'https://shop.example/hook');
        const liveHttp = await live.create(direct({ callback_url: 'http://shop.example/hook' }));
        assert.equal(liveHttp.json().error.field, 'callback_url');
      });

      it('duplicate_reference for a second payment with the same reference and another key', async () => {
        const body = direct();
        await api.createOk(body);
        await expectError(body, 409, 'duplicate_reference', 'reference');
      });

      it('writes nothing when a request is refused', async () => {
        const before = await t.services.database.db
          .selectFrom('payments')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        await api.create(direct({ operator: 'nope' }));
        await api.create(direct({ amount: 1 }));
        const afterCount = await t.services.database.db
          .selectFrom('payments')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        assert.equal(Number(afterCount.n), Number(before.n));
      });
    });

    describe('live environment', () => {
      it('fails cleanly with operator_unavailable when no live operator is configured, storing nothing', async () => {
        const body = direct();
        const res = await live.create(body);
        assert.equal(res.statusCode, 503);
        assert.equal(res.json().error.code, 'operator_unavailable');
        assert.equal((await live.get(body.reference)).statusCode, 404);
      });

      it('refuses live collection for a suspended merchant with account_inactive', async () => {
        const suspended = await t.newMerchant({ name: 'Suspended' });
        await t.services.merchants.updateMerchant(suspended.merchantId, { status: 'suspended' });
        const res = await collectClient(t.app, suspended.liveKey).create(direct());
        assert.equal(res.statusCode, 403);
        assert.equal(res.json().error.code, 'account_inactive');
      });

      it('keeps hosted live payments possible before KYC (no operator is needed until the customer pays)', async () => {
        const fresh = await t.newMerchant({ name: 'No KYC', kyc: 'pending' });
        const res = await collectClient(t.app, fresh.liveKey).create(hosted());
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().environment, 'live');
        assert.equal(res.json().sandbox, false);
      });
    });
  });
}
