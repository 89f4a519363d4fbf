/**
 * Maker-checker approvals (docs/dashboard.md "Approvals (maker-checker)"): the policy per currency,
 * payouts and batch executions submitted from the dashboard, pending in live above the threshold
 * until a second user approves (never the maker), executed once even with two approvers racing;
 * the merchant API refuses a session's live money-out above the threshold, not an API key's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { SandboxOperator } from '../../src/operators/sandbox/sandbox-operator.js';
import { dashboardCall, mailedToken, newOwner, PASSWORD, signIn, uniqueEmail } from '../support/dashboard.js';
import { seedLiveBalance } from '../support/live-balance.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, unknown> & { id: string; status: string };
type Environment = 'test' | 'live';

const THRESHOLD = 1_000_000;

for (const target of testDatabases()) {
  describe(`dashboard approvals on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;
    // The live connectors, changed by a test (an operator going away); the clock, moved by one.
    const liveConnectors = new Map<string, SandboxOperator>();
    let clockOffsetMs = 0;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-approvals-'));
      // The sandbox answers live MTN Benin payouts too, so a live execution reaches an operator here.
      const sandbox = new SandboxOperator();
      liveConnectors.set('MTN_BJ', sandbox);
      t = await buildTestApp(target, {
        env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' },
        operators: new OperatorRegistry({ test: sandbox, live: liveConnectors }),
        clock: { now: () => new Date(Date.now() + clockOffsetMs) },
      });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    const dash = (method: 'GET' | 'POST' | 'PUT', url: string, access: string, environment: Environment, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1/dashboard${url}`,
        headers: { authorization: `Bearer ${access}`, 'x-service-environment': environment },
        ...(payload ? { payload } : {}),
      });
    /** The merchant API with a session (`access`) or an API key (`key`). */
    const api = (method: 'GET' | 'POST', url: string, who: { access: string; merchantId: string } | { key: string }, environment: Environment, payload?: object) =>
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
    const payoutBody = (amount: number) => ({ amount, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: `AP-${newId()}` });

    async function member(owner: { access: string; merchantId: string }, role: string) {
      const email = uniqueEmail(role);
      const invited = await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role });
      assert.equal(invited.statusCode, 202, invited.body);
      const accepted = await call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(dataDir, email, 'accept-invitation'), name: role, password: PASSWORD });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const access = await signIn(call, email);
      return { email, access, merchantId: owner.merchantId, userId: (await call('GET', '/me', access)).json().user.id as string };
    }

    /** An owner whose KYC is validated, with a live balance, an XOF threshold, a finance member and an admin. */
    async function team(liveBalance = 50_000_000) {
      const owner = await newOwner(call, dataDir);
      await t.services.merchants.updateMerchant(owner.merchantId, { kycStatus: 'validated' });
      if (liveBalance > 0) await seedLiveBalance(t.db.database, owner.merchantId, liveBalance);
      const policy = await dash('PUT', `/merchants/${owner.merchantId}/approval-policy`, owner.access, 'test', { thresholds: [{ currency: 'xof', amount_minor: THRESHOLD }] });
      assert.equal(policy.statusCode, 200, policy.body);
      return { owner, finance: await member(owner, 'finance'), admin: await member(owner, 'admin') };
    }

    const submitPayout = (who: { access: string; merchantId: string }, environment: Environment, amount: number) =>
      dash('POST', `/merchants/${who.merchantId}/approvals/payouts`, who.access, environment, payoutBody(amount));
    const approve = (who: { access: string; merchantId: string }, id: string) => dash('POST', `/merchants/${who.merchantId}/approvals/${id}/approve`, who.access, 'live');
    const livePayouts = async (owner: { access: string; merchantId: string }) => (await api('GET', '/payout/mobile-money/', owner, 'live')).json().data as Wire[];
    const liveBalance = async (owner: { access: string; merchantId: string }) =>
      ((await api('GET', '/balances', owner, 'live')).json().balances as Array<{ currency: string; available_minor: number; reserved_minor: number }>).find(
        (b) => b.currency === 'XOF',
      );

    it('keeps a policy per currency that every member reads and only owners and admins set', async () => {
      const owner = await newOwner(call, dataDir);
      const viewer = await member(owner, 'viewer');
      const finance = await member(owner, 'finance');
      const empty = await dash('GET', `/merchants/${owner.merchantId}/approval-policy`, viewer.access, 'test');
      assert.equal(empty.statusCode, 200, empty.body);
      assert.deepEqual(empty.json().thresholds, []);
      for (const who of [viewer, finance]) {
        const refused = await dash('PUT', `/merchants/${owner.merchantId}/approval-policy`, who.access, 'test', { thresholds: [] });
        assert.equal(refused.statusCode, 403);
        assert.equal(refused.json().error.code, 'insufficient_role');
      }
      const twice = await dash('PUT', `/merchants/${owner.merchantId}/approval-policy`, owner.access, 'test', {
        thresholds: [
          { currency: 'XOF', amount_minor: 1 },
          { currency: 'xof', amount_minor: 2 },
        ],
      });
      assert.equal(twice.statusCode, 400);
      assert.equal(twice.json().error.code, 'validation_error');
      const set = await dash('PUT', `/merchants/${owner.merchantId}/approval-policy`, owner.access, 'live', { thresholds: [{ currency: 'xof', amount_minor: 500_000 }] });
      assert.equal(set.statusCode, 200, set.body);
      const read = await dash('GET', `/merchants/${owner.merchantId}/approval-policy`, viewer.access, 'test');
      assert.deepEqual(read.json(), { object: 'approval_policy', merchant_id: owner.merchantId, thresholds: [{ currency: 'XOF', amount_minor: 500_000 }], applies_to: 'live' });
      const off = await dash('PUT', `/merchants/${owner.merchantId}/approval-policy`, owner.access, 'test', { thresholds: [] });
      assert.deepEqual(off.json().thresholds, []);
      const stranger = await newOwner(call, dataDir);
      assert.equal((await dash('GET', `/merchants/${owner.merchantId}/approval-policy`, stranger.access, 'test')).statusCode, 404);
    });

    it('lets only roles that pay out submit, only deciders decide, and no one outside the merchant', async () => {
      const { owner } = await team();
      const developer = await member(owner, 'developer');
      const viewer = await member(owner, 'viewer');
      const request = (await submitPayout(owner, 'live', THRESHOLD * 2)).json();
      for (const who of [developer, viewer]) {
        const payout = await submitPayout(who, 'live', THRESHOLD);
        assert.equal(payout.statusCode, 403, payout.body);
        assert.equal(payout.json().error.code, 'insufficient_role');
        const batch = await dash('POST', `/merchants/${owner.merchantId}/approvals/batches`, who.access, 'live', { batch_id: request.id });
        assert.equal(batch.json().error.code, 'insufficient_role');
        assert.equal((await approve(who, request.id)).json().error.code, 'insufficient_role');
        const reject = await dash('POST', `/merchants/${owner.merchantId}/approvals/${request.id}/reject`, who.access, 'live', { reason: 'no' });
        assert.equal(reject.json().error.code, 'insufficient_role');
        assert.equal((await dash('GET', `/merchants/${owner.merchantId}/approvals/${request.id}`, who.access, 'live')).statusCode, 200, 'every member reads');
      }
      const stranger = await newOwner(call, dataDir);
      assert.equal((await dash('GET', `/merchants/${owner.merchantId}/approvals`, stranger.access, 'live')).statusCode, 404);
      assert.equal((await dash('POST', `/merchants/${owner.merchantId}/approvals/${request.id}/approve`, stranger.access, 'live')).statusCode, 404);
      assert.equal(
        (await dash('GET', `/merchants/${stranger.merchantId}/approvals/${request.id}`, stranger.access, 'live')).statusCode,
        404,
        'another merchant’s request is unknown',
      );
      assert.equal((await dash('GET', `/merchants/${owner.merchantId}/approvals`, owner.access, 'live')).json().data[0].status, 'pending');
    });

    it('executes at once in test, and in live at or below the threshold, saying so', async () => {
      const { owner } = await team();
      const inTest = await submitPayout(owner, 'test', THRESHOLD * 5);
      assert.equal(inTest.statusCode, 201, inTest.body);
      assert.equal(inTest.json().status, 'executed');
      assert.equal(inTest.json().approval_required, false);
      assert.equal(inTest.json().result.id, inTest.json().id, 'the payout’s id is the request’s');
      assert.equal((await api('GET', `/payout/mobile-money/${inTest.json().id}/`, owner, 'test')).statusCode, 200);
      const atThreshold = await submitPayout(owner, 'live', THRESHOLD);
      assert.equal(atThreshold.statusCode, 201, atThreshold.body);
      assert.equal(atThreshold.json().status, 'executed');
      assert.equal(atThreshold.json().approval_required, false);
      assert.equal(atThreshold.json().result.status, 'PENDING');
      assert.deepEqual(
        (await livePayouts(owner)).map((p) => p.id),
        [atThreshold.json().id],
      );
    });

    it('refuses a bad payout at submission, storing nothing, and answers an execution’s refusal as the API would', async () => {
      const { owner } = await team(0);
      const bad = await dash('POST', `/merchants/${owner.merchantId}/approvals/payouts`, owner.access, 'live', { ...payoutBody(THRESHOLD * 2), phone: '12' });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().error.code, 'invalid_phone');
      const broke = await submitPayout(owner, 'live', THRESHOLD);
      assert.equal(broke.statusCode, 422, broke.body);
      assert.equal(broke.json().error.code, 'insufficient_balance');
      const list = (await dash('GET', `/merchants/${owner.merchantId}/approvals`, owner.access, 'live')).json().data as Wire[];
      assert.deepEqual(
        list.map((a) => [a.status, (a.error as { code: string }).code]),
        [['failed', 'insufficient_balance']],
      );
      assert.deepEqual(await livePayouts(owner), []);
    });

    it('holds a live payout above the threshold until another user approves it, with the audit trail', async () => {
      const { owner, finance } = await team();
      const viewer = await member(owner, 'viewer');
      const submitted = await submitPayout(finance, 'live', THRESHOLD + 1);
      assert.equal(submitted.statusCode, 201, submitted.body);
      const request = submitted.json();
      assert.equal(request.status, 'pending');
      assert.equal(request.approval_required, true);
      assert.equal(request.maker_id, finance.userId);
      assert.equal(request.amount_minor, THRESHOLD + 1);
      assert.equal(request.currency, 'XOF');
      assert.deepEqual(await livePayouts(owner), [], 'nothing paid while pending');
      assert.equal((await liveBalance(owner))?.reserved_minor, 0);

      const own = await approve(finance, request.id);
      assert.equal(own.statusCode, 403);
      assert.equal(own.json().error.code, 'self_approval_forbidden');
      const byViewer = await approve(viewer, request.id);
      assert.equal(byViewer.statusCode, 403);
      assert.equal(byViewer.json().error.code, 'insufficient_role');
      assert.equal(
        (await dash('POST', `/merchants/${owner.merchantId}/approvals/${request.id}/approve`, owner.access, 'test')).statusCode,
        404,
        'a live request is not seen from test',
      );

      const approved = await approve(owner, request.id);
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal(approved.json().status, 'executed');
      assert.equal(approved.json().decided_by, owner.userId);
      assert.deepEqual(approved.json().result, { id: request.id, status: 'PENDING' });
      const payouts = await livePayouts(owner);
      assert.deepEqual(
        payouts.map((p) => [p.id, p.amount]),
        [[request.id, THRESHOLD + 1]],
      );
      assert.ok(((await liveBalance(owner))?.reserved_minor ?? 0) > THRESHOLD, 'reserved once');
      const again = await approve(owner, request.id);
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().error.code, 'approval_not_pending');

      const log = (await dash('GET', `/merchants/${owner.merchantId}/audit-log?limit=100`, owner.access, 'live')).json().data as Array<{
        action: string;
        user_id: string;
        target: string;
      }>;
      const trail = log
        .filter((entry) => entry.target?.startsWith(request.id))
        .map((entry) => [entry.action, entry.user_id])
        .reverse();
      assert.deepEqual(trail, [
        ['approval.submitted', finance.userId],
        ['approval.approved', owner.userId],
        ['approval.executed', owner.userId],
      ]);
    });

    it('emails the members who may decide, never the maker nor a viewer, when a live request waits; none when it needs no approval', async () => {
      const { owner, finance, admin } = await team();
      const viewer = await member(owner, 'viewer');
      const below = await submitPayout(finance, 'live', THRESHOLD);
      assert.equal(below.json().status, 'executed', below.body);
      const submitted = await submitPayout(finance, 'live', THRESHOLD + 150);
      assert.equal(submitted.statusCode, 201, submitted.body);
      // Sent after the answer: waited for, a moment at most.
      let notices: Map<string, string[]> = new Map();
      for (let tries = 0; tries < 50 && (notices.get(owner.email)?.length ?? 0) + (notices.get(admin.email)?.length ?? 0) < 2; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 40));
        notices = approvalNotices();
      }
      for (const decider of [owner, admin]) {
        const mails = notices.get(decider.email) ?? [];
        assert.equal(mails.length, 1, `one notice to ${decider.email}`);
        assert.match(mails[0]!, /Shop: finance asks for your approval/);
        assert.match(mails[0]!, /a payout \(10,001\.5 XOF\) in live mode/);
        assert.match(mails[0]!, /\/dashboard\/approvals/);
      }
      assert.equal(notices.get(finance.email), undefined, 'not the maker');
      assert.equal(notices.get(viewer.email), undefined, 'not a role that cannot decide');
    });

    /** The approval notices in the dev mailbox, by receiver. */
    function approvalNotices(): Map<string, string[]> {
      const folder = join(dataDir, 'mailbox');
      const found = new Map<string, string[]>();
      for (const name of readdirSync(folder)) {
        const mail = readFileSync(join(folder, name), 'utf8');
        if (!mail.includes('asks for your approval') && !mail.includes('demande votre approbation')) continue;
        const to = /^To: (.+)$/m.exec(mail)?.[1]?.trim() ?? '';
        found.set(to, [...(found.get(to) ?? []), mail]);
      }
      return found;
    }

    it('executes once when two approvers approve at the same time', async () => {
      const { owner, finance, admin } = await team();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await submitPayout(owner, 'live', THRESHOLD * 2)).json().id as string);
      for (const id of ids) {
        const answers = await Promise.all([approve(finance, id), approve(admin, id)]);
        assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409], answers.map((a) => a.body).join('\n'));
        const loser = answers.find((a) => a.statusCode === 409)!;
        assert.equal(loser.json().error.code, 'approval_not_pending');
        assert.equal(answers.find((a) => a.statusCode === 200)!.json().status, 'executed');
      }
      const payouts = await livePayouts(owner);
      assert.deepEqual(payouts.map((p) => p.id).sort(), [...ids].sort(), 'one payout per request');
      const executed = (await dash('GET', `/merchants/${owner.merchantId}/approvals?status=executed`, owner.access, 'live')).json().data as Wire[];
      assert.equal(executed.length, 4);
    });

    it('rejects with a reason, and then nothing can approve it', async () => {
      const { owner, finance } = await team();
      const request = (await submitPayout(owner, 'live', THRESHOLD * 3)).json();
      const noReason = await dash('POST', `/merchants/${owner.merchantId}/approvals/${request.id}/reject`, finance.access, 'live', {});
      assert.equal(noReason.statusCode, 400);
      const rejected = await dash('POST', `/merchants/${owner.merchantId}/approvals/${request.id}/reject`, finance.access, 'live', { reason: 'Wrong beneficiary' });
      assert.equal(rejected.statusCode, 200, rejected.body);
      assert.equal(rejected.json().status, 'rejected');
      assert.equal(rejected.json().reason, 'Wrong beneficiary');
      assert.equal(rejected.json().decided_by, finance.userId);
      const late = await approve(finance, request.id);
      assert.equal(late.statusCode, 409);
      assert.deepEqual(await livePayouts(owner), []);
      const pending = (await dash('GET', `/merchants/${owner.merchantId}/approvals?status=pending`, owner.access, 'live')).json().data;
      assert.deepEqual(pending, []);
    });

    it('fails an approved payout the balance no longer covers, paying nothing', async () => {
      const { owner, finance } = await team(THRESHOLD * 3);
      const big = (await submitPayout(owner, 'live', THRESHOLD * 2)).json();
      const other = (await submitPayout(owner, 'live', THRESHOLD * 2)).json();
      assert.equal((await approve(finance, big.id)).json().status, 'executed');
      const failed = await approve(finance, other.id);
      assert.equal(failed.statusCode, 200, failed.body);
      assert.equal(failed.json().status, 'failed');
      assert.equal(failed.json().error.code, 'insufficient_balance');
      assert.deepEqual(
        (await livePayouts(owner)).map((p) => p.id),
        [big.id],
      );
    });

    it('holds a live batch execution above the threshold, and the merchant API refuses a session around it', async () => {
      const { owner, admin } = await team();
      const line = () => ({ beneficiary_name: 'Afi Mensah', phone: '0197000000', amount: 600_000, currency: 'XOF', reference: `L-${newId()}`, country: 'BJ', operator: 'mtn_bj' });
      const created = await api('POST', '/bulk-payments/', owner, 'live', { name: 'Salaires', items: [line(), line()] });
      assert.equal(created.statusCode, 201, created.body);
      const batchId = created.json().id as string;

      const around = await api('POST', `/bulk-payments/${batchId}/validate/`, owner, 'live');
      assert.equal(around.statusCode, 403, around.body);
      assert.equal(around.json().error.code, 'approval_required');
      assert.match(around.json().error.message, new RegExp(`/api/v1/dashboard/merchants/${owner.merchantId}/approvals`));

      const submitted = await dash('POST', `/merchants/${owner.merchantId}/approvals/batches`, owner.access, 'live', { batch_id: batchId });
      assert.equal(submitted.statusCode, 201, submitted.body);
      assert.equal(submitted.json().status, 'pending');
      assert.equal(submitted.json().amount_minor, 1_200_000);
      const twice = await dash('POST', `/merchants/${owner.merchantId}/approvals/batches`, owner.access, 'live', { batch_id: batchId });
      assert.equal(twice.statusCode, 200);
      assert.equal(twice.json().id, submitted.json().id, 'the request already waiting');
      assert.equal((await api('GET', `/bulk-payments/${batchId}/`, owner, 'live')).json().status, 'draft');

      const approved = await approve(admin, submitted.json().id);
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal(approved.json().status, 'executed');
      assert.deepEqual(approved.json().result, { id: batchId, status: 'processing' });
      assert.equal((await api('GET', `/bulk-payments/${batchId}/`, owner, 'live')).json().status, 'processing');
      const done = await dash('POST', `/merchants/${owner.merchantId}/approvals/batches`, owner.access, 'live', { batch_id: batchId });
      assert.equal(done.statusCode, 409);
      assert.equal(done.json().error.code, 'invalid_state_transition');
    });

    it('refuses a session’s live payout above the threshold on the merchant API, not an API key’s, nor below it or in test', async () => {
      const { owner } = await team();
      const above = await api('POST', '/payout/mobile-money/', owner, 'live', payoutBody(THRESHOLD + 1));
      assert.equal(above.statusCode, 403, above.body);
      assert.equal(above.json().error.code, 'approval_required');
      assert.deepEqual(await livePayouts(owner), [], 'nothing stored');
      assert.equal((await api('POST', '/payout/mobile-money/', owner, 'live', payoutBody(THRESHOLD))).statusCode, 201);
      assert.equal((await api('POST', '/payout/mobile-money/', owner, 'test', payoutBody(THRESHOLD * 10))).statusCode, 201);
      const { secret } = await t.services.merchants.createKey({ merchantId: owner.merchantId, environment: 'live' });
      const byKey = await api('POST', '/payout/mobile-money/', { key: secret }, 'live', payoutBody(THRESHOLD * 2));
      assert.equal(byKey.statusCode, 201, byKey.body);
    });

    it('lists the active environment’s requests newest first, by status, page by page', async () => {
      const { owner } = await team();
      const first = (await submitPayout(owner, 'live', THRESHOLD * 2)).json();
      const second = (await submitPayout(owner, 'live', THRESHOLD * 2)).json();
      const inTest = (await submitPayout(owner, 'test', THRESHOLD * 2)).json();
      const page1 = (await dash('GET', `/merchants/${owner.merchantId}/approvals?limit=1`, owner.access, 'live')).json();
      assert.deepEqual(
        page1.data.map((a: Wire) => a.id),
        [second.id],
      );
      assert.equal(page1.has_more, true);
      const page2 = (await dash('GET', `/merchants/${owner.merchantId}/approvals?limit=1&starting_after=${page1.next_cursor}`, owner.access, 'live')).json();
      assert.deepEqual(
        page2.data.map((a: Wire) => a.id),
        [first.id],
      );
      const testOnes = (await dash('GET', `/merchants/${owner.merchantId}/approvals`, owner.access, 'test')).json().data as Wire[];
      assert.deepEqual(
        testOnes.map((a) => a.id),
        [inTest.id],
      );
      const one = await dash('GET', `/merchants/${owner.merchantId}/approvals/${first.id}`, owner.access, 'live');
      assert.equal(one.json().request.reference, (first.request as { reference: string }).reference);
      assert.equal((await dash('GET', `/merchants/${owner.merchantId}/approvals/${first.id}`, owner.access, 'test')).statusCode, 404);
      const badStatus = await dash('GET', `/merchants/${owner.merchantId}/approvals?status=done`, owner.access, 'live');
      assert.equal(badStatus.statusCode, 400);
      const badCursor = await dash('GET', `/merchants/${owner.merchantId}/approvals?starting_after=${inTest.id}`, owner.access, 'live');
      assert.equal(badCursor.statusCode, 400);
      assert.equal(badCursor.json().error.code, 'invalid_cursor');
    });

    it('leaves approved a request whose execution could not finish, and executes it on a later approval, once', async () => {
      const { owner, finance, admin } = await team();
      const request = (await submitPayout(owner, 'live', THRESHOLD * 2)).json();
      // The live route's breaker open: its connector says it is unavailable (the registry holds the route itself).
      const connector = liveConnectors.get('MTN_BJ')!;
      Object.assign(connector, { health: () => 'unavailable' });
      try {
        const down = await approve(finance, request.id);
        assert.equal(down.statusCode, 503, down.body);
        assert.equal(down.json().error.code, 'operator_unavailable');
      } finally {
        delete (connector as { health?: unknown }).health;
      }
      assert.equal((await dash('GET', `/merchants/${owner.merchantId}/approvals/${request.id}`, owner.access, 'live')).json().status, 'approved');
      assert.deepEqual(await livePayouts(owner), []);
      const tooSoon = await approve(admin, request.id);
      assert.equal(tooSoon.statusCode, 409, 'the first execution may still be running');
      const own = await approve(owner, request.id);
      assert.equal(own.json().error.code, 'self_approval_forbidden');
      clockOffsetMs += 61_000;
      // Two approvals take it over at once: one executes it, the other is refused.
      const answers = await Promise.all([approve(admin, request.id), approve(finance, request.id)]);
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409], answers.map((a) => a.body).join('\n'));
      const retried = answers.find((a) => a.statusCode === 200)!;
      assert.equal(retried.json().status, 'executed');
      assert.equal(retried.json().decided_by, finance.userId, 'the approval stays the first approver’s');
      assert.deepEqual(
        (await livePayouts(owner)).map((p) => p.id),
        [request.id],
      );
    });
  });
}
