/**
 * Settlement schedules (docs/settlements.md "Schedule", issue 26) on every database: PUT and GET with
 * every refusal a stable 4xx that writes nothing; runs on a clock the test moves: one settlement per
 * due run even with two workers at once, the minimum and the reserve, catch-up after days down, a
 * worker dying between settling and recording. Most runs go through a stand-in for the settlements
 * core that records each call and writes a bare settlement row (its unique reference included), so
 * each run's request can be checked; the last suite runs the real SettlementService, with accounts
 * made through their routes. Elsewhere settlement accounts are written as rows, as the
 * settlement-account service stores them, to reach every state (removed, other currency) at once.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { AkweError, type ErrorCode } from '../../src/core/errors/index.js';
import type { PaymentContext } from '../../src/core/payments/payment-service.js';
import type { Clock } from '../../src/core/ports.js';
import type { Settlement } from '../../src/core/settlements/settlement.js';
import type { ScheduleRun } from '../../src/core/settlements/settlement-schedule-store.js';
import type { SettlementSchedule } from '../../src/core/settlements/settlement-schedule.js';
import { SettlementScheduleService, type ScheduleSettlements } from '../../src/core/settlements/settlement-schedule-service.js';
import type { Environment, TenantScope } from '../../src/core/shared/environment.js';
import { newId } from '../../src/core/shared/ids.js';
import { MerchantRepository } from '../../src/storage/repositories/merchant-repository.js';
import { SettlementAccountRepository } from '../../src/storage/repositories/settlement-account-repository.js';
import { SettlementScheduleRepository } from '../../src/storage/repositories/settlement-schedule-repository.js';
import type { Database } from '../../src/storage/schema.js';
import { isUniqueViolation } from '../../src/storage/unique-violation.js';
import { settlementScheduleJob } from '../../src/workers/settlement-schedule-job.js';
import { FakeClock } from '../support/fake-clock.js';
import { insertSettlementAccount } from '../support/settlements.js';
import { seedLiveBalance } from '../support/live-balance.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The sandbox float of 1 000 000 FCFA, in centimes. */
const FLOAT = 100_000_000;
/** Sunday 2026-11-22, 10:00 UTC: the next midnight is Monday 2026-11-23. */
const START = '2026-11-22T10:00:00.000Z';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CLAIM_MS = 5 * 60_000;

/**
 * Stands in for SettlementService.create: records each call and writes a bare settlement row, so the
 * database's unique (merchant, environment, reference) index refuses a second one with
 * duplicate_reference as the real service does. `refusals` makes it refuse an account.
 */
class RecordingSettlements implements ScheduleSettlements {
  readonly calls: Array<{ scope: TenantScope; merchantKyc: string; input: Parameters<ScheduleSettlements['create']>[1] }> = [];
  readonly refusals = new Map<string, ErrorCode>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async create(ctx: PaymentContext, input: Parameters<ScheduleSettlements['create']>[1]): Promise<Settlement> {
    this.calls.push({ scope: { merchantId: ctx.merchantId, environment: ctx.environment }, merchantKyc: ctx.merchant.kycStatus, input });
    const refusal = this.refusals.get(input.accountId);
    if (refusal) throw new AkweError(refusal);
    const id = newId();
    const now = this.clock.now().toISOString();
    try {
      await insertSettlementRow(this.db, {
        id,
        scope: ctx,
        reference: input.reference!,
        accountId: input.accountId,
        amountMinor: input.amountMinor!,
        origin: input.origin ?? 'api',
        now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AkweError('duplicate_reference');
      throw error;
    }
    return { id, reference: input.reference, amountMinor: input.amountMinor, origin: input.origin } as Settlement;
  }
}

async function insertSettlementRow(
  db: Kysely<Database>,
  row: { id: string; scope: TenantScope; reference: string; accountId: string; amountMinor: number; origin: 'api' | 'schedule'; now: string },
) {
  const last = await db
    .selectFrom('settlements')
    .select((eb) => eb.fn.max<number | null>('sequence').as('sequence'))
    .where('merchant_id', '=', row.scope.merchantId)
    .where('environment', '=', row.scope.environment)
    .where('currency', '=', 'XOF')
    .executeTakeFirst();
  await db
    .insertInto('settlements')
    .values({
      id: row.id,
      sequence: Number(last?.sequence ?? 0) + 1,
      merchant_id: row.scope.merchantId,
      environment: row.scope.environment,
      reference: row.reference,
      account_id: row.accountId,
      kind: 'wallet',
      status: 'pending',
      origin: row.origin,
      amount_minor: row.amountMinor,
      fee_minor: 0,
      currency: 'XOF',
      destination: '{}',
      payout_id: null,
      bank_reference: null,
      failure_code: null,
      failure_message: null,
      opening_available_minor: 0,
      closing_available_minor: 0,
      opening_reserved_minor: 0,
      closing_reserved_minor: 0,
      description: null,
      metadata: '{}',
      created_at: row.now,
      updated_at: row.now,
      settled_at: null,
      version: 1,
    })
    .execute();
}

/** A repository whose worker "dies" after settling: recording the run fails while `dying` is set. */
class DyingRepository extends SettlementScheduleRepository {
  dying = true;

  override async recordRun(claimed: SettlementSchedule, run: ScheduleRun): Promise<void> {
    if (this.dying) throw new Error('the worker died before recording its run');
    return super.recordRun(claimed, run);
  }
}

for (const target of testDatabases()) {
  describe(`settlement schedules on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let clock: FakeClock;
    let db: Kysely<Database>;

    before(async () => {
      clock = new FakeClock(new Date(START));
      t = await buildTestApp(target, { clock, env: { SANDBOX_FLOAT: String(FLOAT / 100) } });
      db = t.services.database.db;
    });
    after(() => t.close());

    const headers = (key: string) => ({ authorization: `Bearer ${key}` });
    const put = (key: string, currency: string, payload: object) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/settlement-schedules/${currency}`, headers: headers(key), payload });
    const get = (key: string, path = '') => t.app.inject({ method: 'GET', url: `/api/v1/settlement-schedules/${path}`, headers: headers(key) });
    const schedule = async (key: string, currency = 'XOF') => (await get(key, currency)).json() as Wire;
    const scheduleRows = async (merchantId: string) => db.selectFrom('settlement_schedules').selectAll().where('merchant_id', '=', merchantId).execute();
    const settlementRows = async (merchantId: string) => db.selectFrom('settlements').selectAll().where('merchant_id', '=', merchantId).execute();

    /** A usable settlement account row as the settlement-account service would have stored it. */
    const seedAccount = (scope: TenantScope, options: { currency?: string; removed?: boolean } = {}) =>
      insertSettlementAccount(db, scope.merchantId, { ...options, environment: scope.environment, now: clock.now() });

    /** A test merchant whose XOF schedule is set (daily by default) to a fresh account of its own. */
    async function scheduled(body: Wire = {}, merchantOptions: Parameters<TestApp['newMerchant']>[0] = {}) {
      const merchant = await t.newMerchant(merchantOptions);
      const accountId = await seedAccount({ merchantId: merchant.merchantId, environment: 'test' });
      const res = await put(merchant.testKey, 'XOF', { interval: 'daily', settlement_account: accountId, ...body });
      assert.equal(res.statusCode, 200, res.body);
      return { ...merchant, accountId };
    }

    function scheduleService(settlements: ScheduleSettlements, store = new SettlementScheduleRepository(db, t.services.database.capabilities)) {
      return new SettlementScheduleService({
        store,
        // Schedules only look accounts up: the repository's claim writer is never reached.
        accounts: new SettlementAccountRepository(db, { writeIn: () => Promise.reject(new Error('schedules write no account')) }),
        settlements,
        ledger: t.services.ledger,
        merchants: new MerchantRepository(db, t.services.database.capabilities),
        clock,
        claimMs: CLAIM_MS,
      });
    }

    /** Moves the clock to `hours` past the next midnight UTC. */
    function toNextMidnight(hours = 0) {
      const now = clock.now().getTime();
      clock.advance(Math.ceil((now + 1) / DAY) * DAY - now + hours * HOUR);
    }

    describe('setting and reading', () => {
      it('reads a currency never set as off with the defaults, in the list and alone, in any case', async () => {
        const merchant = await t.newMerchant();
        const list = (await get(merchant.testKey)).json() as Wire;
        assert.equal(list.object, 'list');
        assert.equal(list.has_more, false);
        assert.deepEqual(list.data, [
          {
            object: 'settlement_schedule',
            currency: 'XOF',
            interval: 'off',
            anchor: null,
            settlement_account: null,
            minimum_minor: 100_000,
            reserve_minor: 0,
            next_run_at: null,
            last_run_at: null,
            last_outcome: null,
            last_settlement: null,
            environment: 'test',
            updated_at: null,
          },
        ]);
        assert.deepEqual(await schedule(merchant.testKey, 'xof'), list.data[0]);
        assert.equal((await scheduleRows(merchant.merchantId)).length, 0, 'reading writes no schedule');
      });

      it('sets each interval with its next run at the next 00:00 UTC that matches, strictly after now', async () => {
        const merchant = await t.newMerchant();
        const accountId = await seedAccount({ merchantId: merchant.merchantId, environment: 'test' });
        const now = clock.now().toISOString();
        const daily = await put(merchant.testKey, 'xof', { interval: 'daily', settlement_account: accountId, minimum_minor: 500_000, reserve_minor: 2_000_000 });
        assert.equal(daily.statusCode, 200, daily.body);
        assert.deepEqual(daily.json(), {
          object: 'settlement_schedule',
          currency: 'XOF',
          interval: 'daily',
          anchor: null,
          settlement_account: accountId,
          minimum_minor: 500_000,
          reserve_minor: 2_000_000,
          next_run_at: '2026-11-23T00:00:00.000Z',
          last_run_at: null,
          last_outcome: null,
          last_settlement: null,
          environment: 'test',
          updated_at: now,
        });
        assert.deepEqual(await schedule(merchant.testKey), daily.json());

        const weekly = (await put(merchant.testKey, 'XOF', { interval: 'weekly', settlement_account: accountId })).json() as Wire;
        assert.deepEqual(
          [weekly.anchor, weekly.next_run_at, weekly.minimum_minor, weekly.reserve_minor],
          [1, '2026-11-23T00:00:00.000Z', 100_000, 0],
          'a PUT replaces: left out is default',
        );
        const friday = (await put(merchant.testKey, 'XOF', { interval: 'weekly', anchor: 5, settlement_account: accountId })).json() as Wire;
        assert.equal(friday.next_run_at, '2026-11-27T00:00:00.000Z');
        const monthly = (await put(merchant.testKey, 'XOF', { interval: 'monthly', anchor: 28, settlement_account: accountId })).json() as Wire;
        assert.deepEqual([monthly.anchor, monthly.next_run_at], [28, '2026-11-28T00:00:00.000Z']);
        const off = (await put(merchant.testKey, 'XOF', { interval: 'off' })).json() as Wire;
        assert.deepEqual([off.interval, off.anchor, off.settlement_account, off.next_run_at], ['off', null, null, null]);
        const rows = await scheduleRows(merchant.merchantId);
        assert.equal(rows.length, 1, 'one schedule per currency, replaced each time');
        assert.equal(rows[0]!.version, 5);
        assert.deepEqual((await get(merchant.testKey)).json().data, [off]);
      });

      it('refuses each bad schedule with its own stable code, writing nothing', async () => {
        const merchant = await t.newMerchant();
        const other = await t.newMerchant();
        const scope = { merchantId: merchant.merchantId, environment: 'test' as const };
        const account = await seedAccount(scope);
        const removed = await seedAccount(scope, { removed: true });
        const inXaf = await seedAccount(scope, { currency: 'XAF' });
        const othersAccount = await seedAccount({ merchantId: other.merchantId, environment: 'test' });
        const liveAccount = await seedAccount({ merchantId: merchant.merchantId, environment: 'live' });
        const set = (await put(merchant.testKey, 'XOF', { interval: 'weekly', anchor: 3, settlement_account: account, reserve_minor: 700 })).json() as Wire;

        const cases: Array<[string, string, Wire, number, string, string?]> = [
          ['an unknown interval', 'XOF', { interval: 'hourly', settlement_account: account }, 400, 'validation_error', 'interval'],
          ['no interval', 'XOF', { settlement_account: account }, 400, 'validation_error'],
          ['an anchor with daily', 'XOF', { interval: 'daily', anchor: 1, settlement_account: account }, 400, 'validation_error', 'anchor'],
          ['an anchor with off', 'XOF', { interval: 'off', anchor: 2 }, 400, 'validation_error', 'anchor'],
          ['a weekday past Sunday', 'XOF', { interval: 'weekly', anchor: 8, settlement_account: account }, 400, 'validation_error', 'anchor'],
          ['a day past 28', 'XOF', { interval: 'monthly', anchor: 29, settlement_account: account }, 400, 'validation_error', 'anchor'],
          ['anchor 0', 'XOF', { interval: 'monthly', anchor: 0, settlement_account: account }, 400, 'validation_error', 'anchor'],
          ['a fractional anchor', 'XOF', { interval: 'weekly', anchor: 2.5, settlement_account: account }, 400, 'validation_error', 'anchor'],
          ['no account for a running schedule', 'XOF', { interval: 'daily' }, 400, 'validation_error', 'settlement_account'],
          ['a minimum of zero', 'XOF', { interval: 'daily', settlement_account: account, minimum_minor: 0 }, 400, 'validation_error', 'minimum_minor'],
          ['a negative reserve', 'XOF', { interval: 'daily', settlement_account: account, reserve_minor: -1 }, 400, 'validation_error', 'reserve_minor'],
          ['an amount as a string', 'XOF', { interval: 'daily', settlement_account: account, reserve_minor: '100' }, 400, 'validation_error', 'reserve_minor'],
          ['an unknown field', 'XOF', { interval: 'daily', settlement_account: account, amount: 5 }, 400, 'validation_error'],
          ['a currency the balance does not hold', 'GHS', { interval: 'daily', settlement_account: account }, 400, 'unsupported_currency', 'currency'],
          ['an account that does not exist', 'XOF', { interval: 'daily', settlement_account: newId() }, 404, 'not_found', 'settlement_account'],
          ['an account id of the wrong shape', 'XOF', { interval: 'daily', settlement_account: 'acct_123' }, 404, 'not_found', 'settlement_account'],
          ['another merchant’s account', 'XOF', { interval: 'daily', settlement_account: othersAccount }, 404, 'not_found', 'settlement_account'],
          ['a live account with a test key', 'XOF', { interval: 'daily', settlement_account: liveAccount }, 404, 'not_found', 'settlement_account'],
          ['a removed account', 'XOF', { interval: 'daily', settlement_account: removed }, 409, 'settlement_account_removed', 'settlement_account'],
          ['an account in another currency', 'XOF', { interval: 'daily', settlement_account: inXaf }, 422, 'settlement_currency_mismatch', 'settlement_account'],
          ['a removed account even when off', 'XOF', { interval: 'off', settlement_account: removed }, 409, 'settlement_account_removed', 'settlement_account'],
        ];
        for (const [label, currency, payload, status, code, field] of cases) {
          const res = await put(merchant.testKey, currency, payload);
          assert.equal(res.statusCode, status, `${label}: ${res.body}`);
          assert.equal(res.json().error.code, code, label);
          if (field) assert.equal(res.json().error.field, field, label);
        }
        const live = await put(merchant.testKey, 'XOF', { interval: 'daily', settlement_account: liveAccount });
        assert.match(live.json().error.message, /in live/, 'the 404 says the account is in the other environment');
        assert.deepEqual(await schedule(merchant.testKey), set, 'no refusal changed the schedule');
        const unknownCurrency = await get(merchant.testKey, 'GHS');
        assert.equal(unknownCurrency.statusCode, 400);
        assert.equal(unknownCurrency.json().error.code, 'unsupported_currency');
        assert.equal((await scheduleRows(merchant.merchantId)).length, 1);
      });

      it('needs settlements:write to set and settlements:read to read', async () => {
        const reader = await t.newMerchant({ scopes: ['settlements:read'] });
        const refused = await put(reader.testKey, 'XOF', { interval: 'off' });
        assert.equal(refused.statusCode, 403, refused.body);
        assert.equal(refused.json().error.code, 'insufficient_scope');
        assert.equal((await get(reader.testKey)).statusCode, 200);
        assert.equal((await get(reader.testKey, 'XOF')).statusCode, 200);
        const writer = await t.newMerchant({ scopes: ['settlements:write'] });
        assert.equal((await put(writer.testKey, 'XOF', { interval: 'off' })).statusCode, 200);
        for (const path of ['', 'XOF']) {
          const unread = await get(writer.testKey, path);
          assert.equal(unread.statusCode, 403);
          assert.equal(unread.json().error.code, 'insufficient_scope');
        }
        const payouts = await t.newMerchant({ scopes: ['payout:write'] });
        assert.equal((await put(payouts.testKey, 'XOF', { interval: 'off' })).statusCode, 403);
      });

      it('keeps test and live schedules apart; a live balance with no currency yet has none to schedule', async () => {
        const merchant = await t.newMerchant();
        assert.deepEqual((await get(merchant.liveKey)).json().data, []);
        const before = await get(merchant.liveKey, 'XOF');
        assert.equal(before.statusCode, 400);
        assert.equal(before.json().error.code, 'unsupported_currency');
        await seedLiveBalance(t.services.database, merchant.merchantId, 5_000_000, clock);
        const liveAccount = await seedAccount({ merchantId: merchant.merchantId, environment: 'live' });
        const live = await put(merchant.liveKey, 'XOF', { interval: 'monthly', anchor: 1, settlement_account: liveAccount });
        assert.equal(live.statusCode, 200, live.body);
        assert.equal(live.json().environment, 'live');
        assert.equal((await schedule(merchant.testKey)).interval, 'off', 'the test schedule is another one');
        assert.equal((await schedule(merchant.liveKey)).interval, 'monthly');
      });
    });

    describe('runs', () => {
      let settlements: RecordingSettlements;
      let schedules: SettlementScheduleService;

      beforeEach(() => {
        settlements = new RecordingSettlements(db, clock);
        schedules = scheduleService(settlements);
      });

      const callsFor = (merchantId: string) => settlements.calls.filter((call) => call.scope.merchantId === merchantId);

      it('settles available less reserve at the run’s midnight, once, and schedules the next', async () => {
        toNextMidnight(10);
        const merchant = await scheduled({ reserve_minor: 3_000_000 });
        const set = await schedule(merchant.testKey);
        while (await schedules.runDue()); // other suites' schedules, due earlier
        assert.equal(callsFor(merchant.merchantId).length, 0, 'not due before its midnight');

        toNextMidnight(0);
        clock.advance(30_000);
        assert.ok((await schedules.runDue()) >= 1);
        const calls = callsFor(merchant.merchantId);
        assert.equal(calls.length, 1);
        const day = set.next_run_at.slice(0, 10);
        assert.deepEqual(calls[0]!.input, {
          accountId: merchant.accountId,
          currency: 'XOF',
          amountMinor: FLOAT - 3_000_000,
          reference: `auto-XOF-${day}`,
          description: 'Scheduled daily settlement',
          origin: 'schedule',
        });
        assert.deepEqual(calls[0]!.scope, { merchantId: merchant.merchantId, environment: 'test' });
        const [row] = await settlementRows(merchant.merchantId);
        const after = await schedule(merchant.testKey);
        assert.equal(after.last_outcome, 'settled');
        assert.equal(after.last_settlement, row!.id);
        assert.equal(after.last_run_at, clock.now().toISOString());
        assert.equal(after.next_run_at, new Date(Date.parse(set.next_run_at) + DAY).toISOString());
        assert.equal(after.updated_at, set.updated_at, 'a run is not a change of the settings');

        assert.equal(await schedules.runDue(), 0, 'nothing is due until the next midnight');
        clock.advance(DAY - 60_000);
        assert.equal(await schedules.runDue(), 0);
        assert.equal(callsFor(merchant.merchantId).length, 1);
      });

      it('settles nothing below the minimum (reserve counted), and exactly the minimum when it is reached', async () => {
        const minimum = 400_000;
        const short = await scheduled({ minimum_minor: minimum, reserve_minor: FLOAT - minimum + 1 });
        const exact = await scheduled({ minimum_minor: minimum, reserve_minor: FLOAT - minimum });
        const nothing = await scheduled({ reserve_minor: FLOAT });
        toNextMidnight(1);
        while (await schedules.runDue());
        assert.equal(callsFor(short.merchantId).length, 0);
        assert.equal((await schedule(short.testKey)).last_outcome, 'below_minimum');
        assert.equal((await schedule(short.testKey)).last_settlement, null);
        assert.equal(callsFor(nothing.merchantId).length, 0);
        assert.equal((await schedule(nothing.testKey)).last_outcome, 'below_minimum');
        assert.deepEqual(
          callsFor(exact.merchantId).map((call) => call.input.amountMinor),
          [minimum],
        );
        assert.equal((await schedule(exact.testKey)).last_outcome, 'settled');
      });

      it('runs each due schedule exactly once with two workers at the same time', async () => {
        const merchants = [];
        for (let i = 0; i < 8; i++) merchants.push(await scheduled(i % 2 === 0 ? {} : { interval: 'weekly', anchor: 1 + (i % 7) }));
        // A week on: every one of them is due, weekly ones on their own weekday.
        clock.advance(7 * DAY + HOUR);
        const [first, second] = await Promise.all([schedules.runDue(50), schedules.runDue(50)]);
        assert.ok(first + second >= merchants.length, `${first} + ${second}`);
        for (const merchant of merchants) {
          assert.equal(callsFor(merchant.merchantId).length, 1, 'one settlement call per due run, however many workers');
          assert.equal((await settlementRows(merchant.merchantId)).length, 1);
          assert.equal((await schedule(merchant.testKey)).last_outcome, 'settled');
        }
      });

      it('catches up after days down with one run that stands for the latest missed one, then the next future run', async () => {
        const merchant = await scheduled();
        const set = await schedule(merchant.testKey);
        clock.advance(3 * DAY + 14 * HOUR);
        while (await schedules.runDue());
        const calls = callsFor(merchant.merchantId);
        assert.equal(calls.length, 1, 'one run, not one per missed day');
        const today = clock.now().toISOString().slice(0, 10);
        assert.equal(calls[0]!.input.reference, `auto-XOF-${today}`);
        assert.notEqual(today, set.next_run_at.slice(0, 10));
        const after = await schedule(merchant.testKey);
        assert.equal(after.next_run_at, `${new Date(Date.parse(`${today}T00:00:00.000Z`) + DAY).toISOString()}`);
        assert.ok(Date.parse(after.next_run_at) > clock.now().getTime());
      });

      it('a worker that died after settling leaves the run to be retried, which finds the settlement instead of making another', async () => {
        const merchant = await scheduled({ interval: 'monthly', anchor: 3 });
        const set = await schedule(merchant.testKey);
        clock.advance(Date.parse(set.next_run_at) - clock.now().getTime() + 60_000);
        while (await schedules.runDue()); // everything else due, first
        settlements.calls.length = 0;

        // Due again: a run at its next anchor day, on a worker that dies before recording.
        const dying = new DyingRepository(db, t.services.database.capabilities);
        const due = await schedule(merchant.testKey);
        clock.advance(Date.parse(due.next_run_at) - clock.now().getTime() + 60_000);
        await assert.rejects(scheduleService(settlements, dying).runDue(100), /died before recording/);
        assert.equal(callsFor(merchant.merchantId).length, 1);
        const claimed = await schedule(merchant.testKey);
        assert.equal(claimed.next_run_at, new Date(clock.now().getTime() + CLAIM_MS).toISOString(), 'claimed until the claim ends');
        assert.equal(claimed.last_run_at, due.last_run_at, 'nothing recorded');
        assert.equal(await schedules.runDue(), 0, 'another worker leaves it alone while claimed');

        clock.advance(CLAIM_MS + 1_000);
        while (await schedules.runDue(100));
        assert.equal(callsFor(merchant.merchantId).length, 1, 'the retry found the run’s settlement and asked for no other');
        const rows = (await settlementRows(merchant.merchantId)).filter((row) => row.reference === callsFor(merchant.merchantId)[0]!.input.reference);
        assert.equal(rows.length, 1, 'one settlement for the run');
        const after = await schedule(merchant.testKey);
        assert.equal(after.last_outcome, 'settled');
        assert.equal(after.last_settlement, rows[0]!.id);
        assert.ok(Date.parse(after.next_run_at) > clock.now().getTime());
        assert.equal(new Date(after.next_run_at).getUTCDate(), 3);
      });

      it('takes the settlement another try of the same run made between its look and its own request', async () => {
        const merchant = await scheduled();
        const set = await schedule(merchant.testKey);
        let made: string | undefined;
        // The other try commits its settlement just before this one asks: the core refuses the reference.
        const racing: ScheduleSettlements = {
          async create(ctx, input) {
            made = newId();
            await insertSettlementRow(db, {
              id: made,
              scope: ctx,
              reference: input.reference!,
              accountId: input.accountId,
              amountMinor: input.amountMinor!,
              origin: 'schedule',
              now: clock.now().toISOString(),
            });
            throw new AkweError('duplicate_reference');
          },
        };
        clock.advance(Date.parse(set.next_run_at) - clock.now().getTime() + 1_000);
        while (await scheduleService(racing).runDue(100));
        const after = await schedule(merchant.testKey);
        assert.equal(after.last_outcome, 'settled');
        assert.ok(made);
        assert.equal(after.last_settlement, made);
      });

      it('records a settlement the merchant made under the run’s reference as duplicate_reference, not as its own', async () => {
        const merchant = await scheduled();
        const set = await schedule(merchant.testKey);
        await insertSettlementRow(db, {
          id: newId(),
          scope: { merchantId: merchant.merchantId, environment: 'test' },
          reference: `auto-XOF-${set.next_run_at.slice(0, 10)}`,
          accountId: merchant.accountId,
          amountMinor: 1_000,
          origin: 'api',
          now: clock.now().toISOString(),
        });
        clock.advance(Date.parse(set.next_run_at) - clock.now().getTime() + 1_000);
        while (await schedules.runDue());
        const after = await schedule(merchant.testKey);
        assert.equal(after.last_outcome, 'duplicate_reference');
        assert.equal(after.last_settlement, null);
      });

      it('records why the settlements core refused: cooling or removed account, KYC, any other code', async () => {
        const cooling = await scheduled();
        const removed = await scheduled();
        const broke = await scheduled();
        settlements.refusals.set(cooling.accountId, 'settlement_account_cooling');
        settlements.refusals.set(removed.accountId, 'settlement_account_removed');
        settlements.refusals.set(broke.accountId, 'insufficient_balance');
        toNextMidnight(2);
        while (await schedules.runDue());
        assert.equal((await schedule(cooling.testKey)).last_outcome, 'account_cooling');
        assert.equal((await schedule(removed.testKey)).last_outcome, 'account_removed');
        assert.equal((await schedule(broke.testKey)).last_outcome, 'insufficient_balance');
        assert.equal((await schedule(cooling.testKey)).next_run_at, new Date(Math.ceil(clock.now().getTime() / DAY) * DAY).toISOString(), 'and tries again at the next run');
      });

      it('passes the merchant as it is now, so the settlements core can gate live runs', async () => {
        const merchant = await t.newMerchant({ kyc: 'pending' });
        await seedLiveBalance(t.services.database, merchant.merchantId, 5_000_000, clock);
        const account = await seedAccount({ merchantId: merchant.merchantId, environment: 'live' });
        assert.equal((await put(merchant.liveKey, 'XOF', { interval: 'daily', settlement_account: account })).statusCode, 200);
        toNextMidnight(1);
        while (await schedules.runDue());
        const [call] = callsFor(merchant.merchantId);
        assert.deepEqual(call?.scope, { merchantId: merchant.merchantId, environment: 'live' });
        assert.equal(call?.merchantKyc, 'pending');
        assert.equal(call?.input.amountMinor, 5_000_000);
      });

      it('keeps the settings a PUT made during a run, and still records the run', async () => {
        const merchant = await scheduled();
        const set = await schedule(merchant.testKey);
        clock.advance(Date.parse(set.next_run_at) - clock.now().getTime() + 1_000);
        const repository = new SettlementScheduleRepository(db, t.services.database.capabilities);
        const claimed = (await repository.claimDue(clock.now().toISOString(), new Date(clock.now().getTime() + CLAIM_MS).toISOString(), 100)).find(
          ({ schedule: claimedOne }) => claimedOne.merchantId === merchant.merchantId,
        );
        assert.ok(claimed);
        assert.equal(claimed.dueAt, set.next_run_at);
        const changed = (await put(merchant.testKey, 'XOF', { interval: 'monthly', anchor: 20, settlement_account: merchant.accountId })).json() as Wire;
        await repository.recordRun(claimed.schedule, {
          lastRunAt: clock.now().toISOString(),
          lastOutcome: 'below_minimum',
          lastSettlementId: null,
          nextRunAt: '2030-01-01T00:00:00.000Z',
        });
        const after = await schedule(merchant.testKey);
        assert.equal(after.interval, 'monthly');
        assert.equal(after.next_run_at, changed.next_run_at, 'the PUT’s next run stands');
        assert.equal(after.last_outcome, 'below_minimum');
        // Other schedules this claim took go back to being due.
        await db.updateTable('settlement_schedules').set({ next_run_at: clock.now().toISOString() }).where('next_run_at', '=', claimed.schedule.nextRunAt).execute();
      });

      it('is the worker job that runs them', async () => {
        const merchant = await scheduled();
        toNextMidnight(1);
        const job = settlementScheduleJob(schedules, { idleDelayMs: 10 });
        assert.equal(job.name, 'settlement-schedules');
        while ((await job.runOnce()) > 0);
        assert.equal(callsFor(merchant.merchantId).length, 1);
      });
    });

    describe('with the real SettlementService', () => {
      const send = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
        t.app.inject({ method, url: `/api/v1${url}`, headers: { ...headers(key), ...(method === 'POST' ? { 'idempotency-key': newId() } : {}) }, ...(payload ? { payload } : {}) });
      const available = async (key: string) => ((await send(key, 'GET', '/balances')).json().balances as Wire[]).find((b) => b.currency === 'XOF')?.available_minor ?? 0;
      const settlementsOf = async (key: string) => (await send(key, 'GET', '/settlements/')).json().data as Wire[];
      /** Two workers at once, pass after pass, until neither finds anything due. */
      const runAllWithTwoWorkers = async () => {
        while ((await Promise.all([t.services.settlementSchedules.runDue(), t.services.settlementSchedules.runDue()])).some((ran) => ran > 0));
      };

      async function withWallet(environment: Environment = 'test') {
        const merchant = await t.newMerchant();
        const key = environment === 'test' ? merchant.testKey : merchant.liveKey;
        const account = await send(key, 'POST', '/settlement-accounts/', { kind: 'wallet', country: 'BJ', operator: 'mtn_bj', phone: '0197000000', holder_name: 'Boutique Adjoa' });
        assert.equal(account.statusCode, 201, account.body);
        return { ...merchant, key, accountId: account.json().id as string };
      }

      it('settles available less reserve through the settlements core, once, with two workers racing', async () => {
        const merchant = await withWallet();
        const reserve = 10_000_000;
        assert.equal((await put(merchant.key, 'XOF', { interval: 'daily', settlement_account: merchant.accountId, reserve_minor: reserve })).statusCode, 200);
        const before = await available(merchant.key);
        toNextMidnight(0);
        clock.advance(60_000);
        await runAllWithTwoWorkers();
        const list = await settlementsOf(merchant.key);
        assert.equal(list.length, 1, JSON.stringify(list));
        const [made] = list;
        assert.equal(made!.origin, 'schedule');
        assert.equal(made!.reference, `auto-XOF-${clock.now().toISOString().slice(0, 10)}`);
        assert.equal(made!.amount_minor, before - reserve);
        assert.equal(await available(merchant.key), reserve, 'the reserve stays available');
        const after = await schedule(merchant.key);
        assert.equal(after.last_outcome, 'settled');
        assert.equal(after.last_settlement, made!.id);
      });

      it('finds the settlement an earlier try of the same run made, after a worker died', async () => {
        const merchant = await withWallet();
        assert.equal((await put(merchant.key, 'XOF', { interval: 'daily', settlement_account: merchant.accountId })).statusCode, 200);
        toNextMidnight(0);
        clock.advance(60_000);
        await assert.rejects(scheduleService(t.services.settlements, new DyingRepository(db, t.services.database.capabilities)).runDue(100), /died before recording/);
        clock.advance(CLAIM_MS + 1_000);
        await runAllWithTwoWorkers();
        const list = await settlementsOf(merchant.key);
        assert.equal(list.length, 1);
        assert.equal((await schedule(merchant.key)).last_settlement, list[0]!.id);
        assert.equal((await schedule(merchant.key)).last_outcome, 'settled');
      });

      it('records kyc_required for a live merchant whose KYC is not validated, settling nothing', async () => {
        const merchant = await withWallet('live');
        await seedLiveBalance(t.services.database, merchant.merchantId, 5_000_000, clock);
        assert.equal((await put(merchant.liveKey, 'XOF', { interval: 'daily', settlement_account: merchant.accountId })).statusCode, 200);
        await t.services.merchants.updateMerchant(merchant.merchantId, { kycStatus: 'pending' });
        toNextMidnight(1);
        while (await t.services.settlementSchedules.runDue());
        assert.equal((await schedule(merchant.liveKey)).last_outcome, 'kyc_required');
        assert.deepEqual(await settlementsOf(merchant.liveKey), []);
        assert.equal(await available(merchant.liveKey), 5_000_000);
      });
    });
  });
}
