/**
 * Maker-checker over every live money-out made in a dashboard session (docs/dashboard.md
 * "Approvals (maker-checker)"): payouts, batches, wallet transfers, settlements and refunds. The
 * merchant API refuses a session's live call above the threshold (403 approval_required), never an
 * API key's, never in test; submitted through the approvals routes, transfers, settlements and
 * refunds wait for a second user, execute once even with two approvers racing, and expire.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../../src/core/shared/clock.js';
import type { Environment } from '../../src/core/shared/environment.js';
import { newId } from '../../src/core/shared/ids.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { SandboxOperator } from '../../src/operators/sandbox/sandbox-operator.js';
import { LedgerRepository } from '../../src/storage/repositories/ledger-repository.js';
import { direct } from '../support/collect-client.js';
import { dashboardCall, mailedToken, newOwner, PASSWORD, signIn, uniqueEmail } from '../support/dashboard.js';
import { insertSettlementAccount } from '../support/settlements.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const THRESHOLD = 1_000_000;
const BELOW = 500_000;
const ABOVE = 2_000_000;
const operations = ['payout', 'batch', 'transfer', 'settlement', 'refund'] as const;
type Operation = (typeof operations)[number];
type Who = { access: string; merchantId: string; userId: string; email: string };
type Caller = { access: string; merchantId: string } | { key: string };

for (const target of testDatabases()) {
  describe(`approvals of every money-out on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;
    let clockOffsetMs = 0;
    let owner: Who;
    let finance: Who;
    let admin: Who;
    let receiver: string;
    const keys: Partial<Record<Environment, string>> = {};
    const accounts: Partial<Record<Environment, string>> = {};

    const call = dashboardCall(() => t);
    const dash = (method: 'GET' | 'POST' | 'PUT', url: string, access: string, environment: Environment, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1/dashboard${url}`,
        headers: { authorization: `Bearer ${access}`, 'x-service-environment': environment },
        ...(payload ? { payload } : {}),
      });
    const api = (method: 'GET' | 'POST', url: string, who: Caller, environment: Environment, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: {
          ...('key' in who
            ? { authorization: `Bearer ${who.key}` }
            : { authorization: `Bearer ${who.access}`, 'x-akwe-merchant': who.merchantId, 'x-service-environment': environment }),
          ...(method === 'POST' ? { 'idempotency-key': `k-${newId()}` } : {}),
        },
        ...(payload ? { payload } : {}),
      });

    async function member(role: string): Promise<Who> {
      const email = uniqueEmail(role);
      assert.equal((await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role })).statusCode, 202);
      const accepted = await call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(dataDir, email, 'accept-invitation'), name: role, password: PASSWORD });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const access = await signIn(call, email);
      return { email, access, merchantId: owner.merchantId, userId: (await call('GET', '/me', access)).json().user.id as string };
    }

    async function seedBalance(environment: Environment, amountMinor: number) {
      await new LedgerRepository(t.db.database.db, newId, systemClock, 0).post(t.db.database.db, [
        {
          merchantId: owner.merchantId,
          environment,
          currency: 'XOF',
          type: 'collection',
          source: { type: 'payment', id: newId(), reference: 'SEED' },
          description: 'seeded for the test',
          lines: [
            { kind: 'operator_clearing', amountMinor: -amountMinor },
            { kind: 'available', amountMinor },
          ],
        },
      ]);
    }

    /** A completed payment of 30 000 FCFA in the environment, made with an API key. */
    async function completedPayment(environment: Environment): Promise<string> {
      const created = await api('POST', '/collect/payments', { key: keys[environment]! }, environment, direct({ amount: 30_000 }));
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().status, 'completed');
      return created.json().id as string;
    }

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-money-out-'));
      // The sandbox answers live MTN Benin too, so live payments, payouts and refunds reach an operator here.
      const sandbox = new SandboxOperator();
      t = await buildTestApp(target, {
        env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' },
        operators: new OperatorRegistry({ test: sandbox, live: new Map([['MTN_BJ', sandbox]]) }),
        clock: { now: () => new Date(Date.now() + clockOffsetMs) },
      });
      owner = await newOwner(call, dataDir);
      await t.services.merchants.updateMerchant(owner.merchantId, { kycStatus: 'validated' });
      for (const environment of ['test', 'live'] as const) {
        await seedBalance(environment, 500_000_000);
        keys[environment] = (await t.services.merchants.createKey({ merchantId: owner.merchantId, environment })).secret;
        accounts[environment] = await insertSettlementAccount(t.db.database.db, owner.merchantId, { kind: 'bank', environment, now: new Date(Date.now() - 48 * 3_600_000) });
      }
      receiver = (await newOwner(call, dataDir)).merchantId;
      const policy = await dash('PUT', `/merchants/${owner.merchantId}/approval-policy`, owner.access, 'test', { thresholds: [{ currency: 'XOF', amount_minor: THRESHOLD }] });
      assert.equal(policy.statusCode, 200, policy.body);
      finance = await member('finance');
      admin = await member('admin');
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** One money-out on the merchant API of `amountMinor` centimes; answers the response to the call that moves money. */
    async function moneyOut(operation: Operation, who: Caller, environment: Environment, amountMinor: number) {
      switch (operation) {
        case 'payout':
          return api('POST', '/payout/mobile-money/', who, environment, { amount: amountMinor, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: `P-${newId()}` });
        case 'batch': {
          const line = { beneficiary_name: 'Afi Mensah', phone: '0197000000', amount: amountMinor, currency: 'XOF', reference: `L-${newId()}`, country: 'BJ', operator: 'mtn_bj' };
          const created = await api('POST', '/bulk-payments/', who, environment, { name: 'Salaires', items: [line] });
          assert.equal(created.statusCode, 201, created.body);
          return api('POST', `/bulk-payments/${created.json().id}/validate/`, who, environment);
        }
        case 'transfer':
          return api('POST', '/transfers/', who, environment, { receiver, amount_minor: amountMinor, currency: 'XOF', reference: `T-${newId()}` });
        case 'settlement':
          return api('POST', '/settlements/', who, environment, { settlement_account: accounts[environment], currency: 'XOF', amount_minor: amountMinor });
        case 'refund':
          return api('POST', `/collect/payments/${await completedPayment(environment)}/refunds`, who, environment, { amount: amountMinor / 100 });
      }
    }

    it('refuses only a session’s live money-out above the threshold on the merchant API, whatever the operation', async () => {
      const outcomes: string[] = [];
      for (const operation of operations) {
        for (const [size, amountMinor] of [
          ['below', BELOW],
          ['above', ABOVE],
        ] as const) {
          for (const by of ['session', 'key'] as const) {
            for (const environment of ['test', 'live'] as const) {
              const who: Caller = by === 'session' ? owner : { key: keys[environment]! };
              const res = await moneyOut(operation, who, environment, amountMinor);
              const outcome = res.statusCode === 403 ? res.json().error.code : res.statusCode < 300 ? 'executed' : `${res.statusCode} ${res.body}`;
              outcomes.push(`${operation} ${size} ${by} ${environment}: ${outcome}`);
            }
          }
        }
      }
      const expected = operations.flatMap((operation) =>
        ['below', 'above'].flatMap((size) =>
          ['session', 'key'].flatMap((by) =>
            ['test', 'live'].map(
              (environment) => `${operation} ${size} ${by} ${environment}: ${size === 'above' && by === 'session' && environment === 'live' ? 'approval_required' : 'executed'}`,
            ),
          ),
        ),
      );
      assert.deepEqual(outcomes, expected);
    });

    it('refuses a session’s live settlement of the whole balance, and a refund of all that is left, when that is above the threshold', async () => {
      const settleAll = await api('POST', '/settlements/', owner, 'live', { settlement_account: accounts.live, currency: 'XOF' });
      assert.equal(settleAll.statusCode, 403, settleAll.body);
      assert.equal(settleAll.json().error.code, 'approval_required');
      const refundAll = await api('POST', `/collect/payments/${await completedPayment('live')}/refunds`, owner, 'live', {});
      assert.equal(refundAll.statusCode, 403, refundAll.body);
      assert.equal(refundAll.json().error.code, 'approval_required');
    });

    const submit = (kind: 'transfers' | 'settlements' | 'refunds', who: Who, environment: Environment, body: object) =>
      dash('POST', `/merchants/${owner.merchantId}/approvals/${kind}`, who.access, environment, body);
    const approve = (who: Who, id: string) => dash('POST', `/merchants/${owner.merchantId}/approvals/${id}/approve`, who.access, 'live');
    const transferBody = (amountMinor: number) => ({ receiver, amount_minor: amountMinor, currency: 'XOF', reference: `T-${newId()}` });
    const transfersWith = async (id: string) => (await t.db.database.db.selectFrom('transfers').select('id').where('id', '=', id).execute()).length;
    const refundsWith = async (id: string) => (await t.db.database.db.selectFrom('refunds').select('id').where('id', '=', id).execute()).length;

    it('holds a live transfer, settlement and refund above the threshold until another member approves, and executes each once', async () => {
      const transfer = await submit('transfers', finance, 'live', transferBody(ABOVE));
      const settlement = await submit('settlements', finance, 'live', { settlement_account: accounts.live, currency: 'XOF', amount_minor: ABOVE });
      const refund = await submit('refunds', finance, 'live', { payment: await completedPayment('live'), amount_minor: ABOVE, reason: 'Returned' });
      for (const [kind, res] of [
        ['transfer', transfer],
        ['settlement', settlement],
        ['refund', refund],
      ] as const) {
        assert.equal(res.statusCode, 201, res.body);
        assert.deepEqual([res.json().kind, res.json().status, res.json().approval_required, res.json().amount_minor], [kind, 'pending', true, ABOVE]);
        assert.ok(res.json().expires_at > res.json().created_at);
        assert.equal((await approve(finance, res.json().id)).json().error.code, 'self_approval_forbidden');
      }
      assert.equal(await transfersWith(transfer.json().id), 0, 'nothing moves while pending');
      assert.equal(await refundsWith(refund.json().id), 0);

      const below = await submit('transfers', finance, 'live', transferBody(BELOW));
      assert.deepEqual([below.json().status, below.json().approval_required], ['executed', false]);
      const inTest = await submit('refunds', finance, 'test', { payment: await completedPayment('test'), amount_minor: ABOVE });
      assert.deepEqual([inTest.json().status, inTest.json().approval_required], ['executed', false], inTest.body);

      for (const request of [transfer, settlement, refund]) {
        const approved = await approve(admin, request.json().id);
        assert.equal(approved.statusCode, 200, approved.body);
        assert.equal(approved.json().status, 'executed', approved.body);
        assert.equal(approved.json().result.id, request.json().id, 'what it made has the request’s id');
      }
      assert.equal(await transfersWith(transfer.json().id), 2, 'both sides of one transfer');
      assert.equal(await refundsWith(refund.json().id), 1);
      const made = await api('GET', `/settlements/${settlement.json().id}`, owner, 'live');
      assert.equal(made.json().amount_minor, ABOVE);
    });

    it('executes a transfer and a refund once when two approvers approve at the same time', async () => {
      const requests = [
        (await submit('transfers', owner, 'live', transferBody(ABOVE))).json(),
        (await submit('refunds', owner, 'live', { payment: await completedPayment('live'), amount_minor: ABOVE })).json(),
      ];
      for (const request of requests) {
        assert.equal(request.status, 'pending');
        const answers = await Promise.all([approve(finance, request.id), approve(admin, request.id)]);
        assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409], answers.map((a) => a.body).join('\n'));
        assert.equal(answers.find((a) => a.statusCode === 409)!.json().error.code, 'approval_not_pending');
        assert.equal(answers.find((a) => a.statusCode === 200)!.json().status, 'executed');
      }
      assert.equal(await transfersWith(requests[0].id), 2, 'one transfer: its sent and received sides');
      assert.equal(await refundsWith(requests[1].id), 1, 'one refund');
    });

    it('settles the balance as it was at submission when a settlement without amount waits for approval', async () => {
      const balance = (await api('GET', '/balances', owner, 'live')).json().balances.find((b: { currency: string }) => b.currency === 'XOF').available_minor as number;
      const request = await submit('settlements', owner, 'live', { settlement_account: accounts.live, currency: 'XOF' });
      assert.equal(request.statusCode, 201, request.body);
      assert.deepEqual([request.json().status, request.json().amount_minor], ['pending', balance]);
      // The balance grows meanwhile: the checker approved a figure, not whatever is there then.
      await seedBalance('live', 1_000_000);
      const approved = await approve(admin, request.json().id);
      assert.equal(approved.json().status, 'executed', approved.body);
      assert.equal((await api('GET', `/settlements/${request.json().id}`, owner, 'live')).json().amount_minor, balance);
    });

    it('expires a request nobody approved in 72 hours: it shows expired and can no longer be approved', async () => {
      const waiting = (await submit('transfers', finance, 'live', transferBody(ABOVE))).json();
      const refund = (await submit('refunds', finance, 'live', { payment: await completedPayment('live'), amount_minor: ABOVE })).json();
      assert.equal(Date.parse(waiting.expires_at) - Date.parse(waiting.created_at), 72 * 3_600_000);
      clockOffsetMs += 72 * 3_600_000 + 1_000;
      try {
        // Three days on, the approver's session has ended too.
        admin.access = await signIn(call, admin.email);
        const seen = await dash('GET', `/merchants/${owner.merchantId}/approvals/${waiting.id}`, admin.access, 'live');
        assert.equal(seen.json().status, 'expired');
        const expired = (await dash('GET', `/merchants/${owner.merchantId}/approvals?status=expired`, admin.access, 'live')).json().data as Array<{ id: string }>;
        assert.deepEqual(
          expired.map((a) => a.id),
          [refund.id, waiting.id],
        );
        const pending = (await dash('GET', `/merchants/${owner.merchantId}/approvals?status=pending`, admin.access, 'live')).json().data as Array<{ id: string }>;
        assert.ok(!pending.some((a) => a.id === waiting.id));
        for (const id of [waiting.id, refund.id]) {
          const late = await approve(admin, id);
          assert.equal(late.statusCode, 409, late.body);
          assert.equal(late.json().error.code, 'approval_expired');
        }
        assert.equal(await transfersWith(waiting.id), 0, 'never executed');
        assert.equal(await refundsWith(refund.id), 0);
      } finally {
        clockOffsetMs = 0;
      }
    });
  });
}
