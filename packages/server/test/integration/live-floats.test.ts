/**
 * Provider floats live on the mocks (docs/operations.md "Floats"): MTN Bénin's own route with a
 * threshold, pawaPay as its second route. Set low on the MTN mock, the float raises the alert (an
 * email to the platform administrators, the back office's banner, the metric), and a new live
 * payout goes through pawaPay instead of failing at MTN; the Floats page shows what the ledger expects.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { mailedToken, PASSWORD, uniqueEmail } from '../support/dashboard.js';
import { eventually, operatorsFileFor, startLiveServer, type LiveServer, type LiveWire } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const MTN_ROUTE = 'mtn_bj/mtn-momo';
const PAWAPAY_ROUTE = 'mtn_bj/pawapay';
/** 500 000 FCFA. */
const THRESHOLD_MINOR = 50_000_000;
const others = ['mtn_ci', 'moov_bj', 'celtiis_bj', 'tmoney_tg', 'flooz_tg', 'orange_ci', 'moov_ci', 'wave_ci'];

for (const target of testDatabases()) {
  describe(`provider floats live on the mocks on ${target.name}`, { skip: target.skip }, () => {
    let mocks: OperatorMocks;
    let db: OpenTestDatabase;
    let live: LiveServer;
    let dir: string;
    let adminEmail: string;
    let adminAccess: string;

    const api = (method: string, path: string, body?: unknown) => live.api(method, path, body);
    const scope = () => ({ merchantId: live.merchantId, environment: 'live' as const });
    const dashboard = async (method: string, path: string, body?: unknown, access?: string) => {
      const res = await fetch(`${live.running.url}/api/v1${path}`, {
        method,
        headers: { ...(access ? { authorization: `Bearer ${access}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : {}) as LiveWire };
    };
    const floats = async (query = '') => {
      const res = await dashboard('GET', `/admin/floats${query}`, undefined, adminAccess);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data as LiveWire[];
    };
    const floatOf = async (route: string) => (await floats()).find((f) => f.route === route);
    const payoutTo = async (phone: string) => {
      const sent = await api('POST', '/payout/mobile-money/', { reference: `FLT-${newId()}`, amount: 100_000, phone, country: 'BJ', operator: 'mtn_bj' });
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
      await eventually(async () => ((await api('GET', `/payout/mobile-money/${sent.body.reference}/`)).body.status === 'COMPLETED' ? true : undefined), 'the payout to complete');
      return sent.body;
    };

    before(async () => {
      mocks = await startOperatorMocks({ mtn: { decisionDelayMs: 100 }, pawapay: { decisionDelayMs: 100 } });
      dir = mkdtempSync(join(tmpdir(), 'akwe-live-floats-'));
      db = await target.open();
      live = await startLiveServer({
        mocks,
        databaseUrl: db.url,
        operatorsFile: operatorsFileFor(mocks, 1_000, { leaveOut: others, without: ['fedapay'], lowFloats: { [MTN_ROUTE]: THRESHOLD_MINOR } }),
        dataDir: dir,
        balanceMinor: 50_000_000,
        settings: { FLOAT_READ_INTERVAL_SECONDS: '10', IDEMPOTENCY_LEASE_SECONDS: '10' },
      });
      // A platform administrator, granted as `akwe admins grant` does, signed in to the back office.
      adminEmail = uniqueEmail('ops');
      const signUp = await dashboard('POST', '/dashboard/auth/sign-up', { email: adminEmail, password: PASSWORD, name: 'Ops', merchant_name: 'Plateforme' });
      assert.equal(signUp.status < 300, true, JSON.stringify(signUp.body));
      await dashboard('POST', '/dashboard/auth/verify-email', { token: mailedToken(dir, adminEmail, 'verify-email') });
      assert.equal(await live.running.services.platformAdmins.grant(adminEmail, 'cli'), true);
      const signIn = await dashboard('POST', '/dashboard/auth/sign-in', { email: adminEmail, password: PASSWORD });
      assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
      adminAccess = signIn.body.access_token as string;
    });

    after(async () => {
      await live?.close();
      await mocks?.close();
      await db?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('reads each route’s float and pays out through MTN while its float is above the threshold', async () => {
      const read = await eventually(async () => {
        const float = await floatOf(MTN_ROUTE);
        return float?.read_at ? float : undefined;
      }, 'the first reading of MTN’s float');
      assert.equal(read.state, 'ok');
      assert.equal(read.balance_minor, 100_000_000, 'the MTN mock’s disbursement account holds 1 000 000 XOF');
      assert.equal(read.threshold_minor, THRESHOLD_MINOR);
      assert.equal((await floatOf(PAWAPAY_ROUTE))?.state === 'unread' || (await floatOf(PAWAPAY_ROUTE))?.state === 'no_threshold', true);
      const payout = await payoutTo('0197345789');
      assert.equal((await live.running.services.payouts.get(scope(), payout.id)).route, 'mtn-momo');
      assert.equal(mocks.mtn.mtn_bj.balances.get('disbursement'), 999_000, 'the transfer drew 1 000 XOF on MTN’s disbursement account');
    });

    it('raises the alert when MTN’s float falls under its threshold, and sends new payouts through pawaPay', async () => {
      const set = await fetch(`${mocks.url}/mtn-bj/_mock/balance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ balance: 1000 }) });
      assert.equal(set.status, 200);

      const low = await eventually(async () => {
        const float = await floatOf(MTN_ROUTE);
        return float?.state === 'low' ? float : undefined;
      }, 'MTN’s float read as low');
      assert.equal(low.balance_minor, 100_000);

      // The banner's list, the metric, and one email to the administrator.
      assert.deepEqual(
        (await floats('?low=true')).map((f) => f.route),
        [MTN_ROUTE],
      );
      const metrics = (await live.running.services.metrics.scrape()).body;
      assert.match(metrics, /akwe_route_float_low\{route="mtn_bj\/mtn-momo"\} 1/);
      assert.match(metrics, /akwe_route_float_minor\{route="mtn_bj\/mtn-momo",currency="XOF"\} 100000/);
      const alerts = await eventually(async () => {
        const mails = readdirSync(join(dir, 'mailbox'))
          .map((name) => readFileSync(join(dir, 'mailbox', name), 'utf8'))
          .filter((mail) => mail.includes(`To: ${adminEmail}`) && mail.includes('Low float: mtn_bj/mtn-momo'));
        return mails.length > 0 ? mails : undefined;
      }, 'the low-float email');
      assert.equal(alerts.length, 1);
      assert.match(alerts[0]!, /1 000 XOF \(seuil 500 000 XOF\)/);

      const payout = await payoutTo('0197345788');
      assert.equal((await live.running.services.payouts.get(scope(), payout.id)).route, 'pawapay');
      assert.equal(mocks.pawapay.postsFor('payouts', payout.id), 1, 'the payout went to pawaPay');
      assert.equal(mocks.mtn.mtn_bj.callsFor(payout.id), 0, 'and never to MTN, low on float');

      // What the ledger expects at each provider: what was paid out through each route.
      const expected = await eventually(async () => {
        const pawapay = await floatOf(PAWAPAY_ROUTE);
        return pawapay?.expected_minor === -100_000 ? pawapay : undefined;
      }, 'the ledger’s expectation at pawaPay');
      assert.equal(expected.expected_currency, 'XOF');
      assert.equal((await floatOf(MTN_ROUTE))?.expected_minor, -100_000);
    });

    it('refuses the Floats list to anyone but a platform administrator, and a bad query with its code', async () => {
      assert.equal((await dashboard('GET', '/admin/floats')).status, 401);
      const bad = await dashboard('GET', '/admin/floats?low=maybe', undefined, adminAccess);
      assert.equal(bad.status, 400);
      assert.equal(JSON.stringify(bad.body).includes('"validation_error"'), true, JSON.stringify(bad.body));
    });
  });
}
