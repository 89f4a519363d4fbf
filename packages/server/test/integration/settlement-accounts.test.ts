/**
 * Settlement accounts (docs/settlements.md "Settlement accounts", issue 26) on every database: wallets and bank
 * accounts (IBAN or UEMOA RIB), each refusal with its code and nothing written, the cooling period
 * (a fake clock moves time) restarted by a change of destination and not by a description or
 * metadata change, events, removal, scopes, merchants and environments kept apart, and the refusals
 * of `usable()`, which the settlements core calls.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ErrorCode } from '../../src/core/errors/index.js';
import { AkweError } from '../../src/core/errors/index.js';
import type { Environment } from '../../src/core/shared/environment.js';
import { newId } from '../../src/core/shared/ids.js';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HOUR = 3_600_000;
/** The test environment's cooling period in this suite (none by default); live keeps its 24 h. */
const TEST_COOLING = HOUR;
const LIVE_COOLING = 24 * HOUR;

const IBAN_BJ = 'BJ66BJ0610100100144390000769';
const IBAN_CI = 'CI93CI0080111301134291200589';
const RIB_TG = 'TG0090604310346500400070';
const IBAN_TG = 'TG53TG0090604310346500400070';

const wallet = (overrides: Wire = {}) => ({ kind: 'wallet', country: 'BJ', operator: 'mtn_bj', phone: '0197000001', holder_name: 'Boutique Adjoa SARL', ...overrides });
const bank = (overrides: Wire = {}) => ({
  kind: 'bank',
  iban: 'BJ66 BJ06 1010 0100 1443 9000 0769',
  bank_name: 'Banque Atlantique',
  holder_name: 'Boutique Adjoa SARL',
  ...overrides,
});

for (const target of testDatabases()) {
  describe(`settlement accounts on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    const clock = new FakeClock(new Date());

    before(async () => {
      t = await buildTestApp(target, { clock, env: { SETTLEMENT_ACCOUNT_TEST_COOLING_MS: String(TEST_COOLING), SETTLEMENT_ACCOUNT_COOLING_MS: String(LIVE_COOLING) } });
    });
    after(() => t.close());

    const send = (key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}`, ...headers }, ...(payload ? { payload } : {}) });
    const create = async (key: string, body: object) => {
      const res = await send(key, 'POST', '/settlement-accounts/', body);
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as Wire;
    };
    const read = async (key: string, id: string) => {
      const res = await send(key, 'GET', `/settlement-accounts/${id}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Wire;
    };
    const patch = (key: string, id: string, body: object) => send(key, 'PATCH', `/settlement-accounts/${id}`, body);
    const listed = async (key: string, query = '') => {
      const res = await send(key, 'GET', `/settlement-accounts/${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Wire;
    };
    /** The account's events, oldest first. */
    const eventsOf = async (key: string, accountId: string) => {
      const res = await send(key, 'GET', `/events?reference=${accountId}&limit=100`);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().data as Wire[]).reverse();
    };
    /** What the merchant has in the database: account rows and events of any kind. */
    const written = async (merchantId: string) => {
      const db = t.services.database.db;
      const count = async (table: 'settlement_accounts' | 'events') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('merchant_id', '=', merchantId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      return { accounts: await count('settlement_accounts'), events: await count('events') };
    };
    const scope = (merchantId: string, environment: Environment = 'test') => ({ merchantId, environment });
    const plusMs = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();
    const refusedWith = async (work: Promise<unknown>, code: ErrorCode, message?: RegExp) => {
      await assert.rejects(work, (error: unknown) => {
        assert.ok(error instanceof AkweError, String(error));
        assert.equal(error.code, code);
        if (message) assert.match(error.message, message);
        return true;
      });
    };

    it('registers a wallet: the operator’s slug, the number in E.164, the country’s currency, cooling until now + the test cooling period, and an event', async () => {
      const merchant = await t.newMerchant();
      const account = await create(merchant.testKey, wallet({ operator: 'MTN_BJ', phone: '01 97 00 00 01', description: 'Main wallet', metadata: { branch: 'cotonou' } }));
      assert.equal(account.object, 'settlement_account');
      assert.equal(account.kind, 'wallet');
      assert.equal(account.operator, 'mtn_bj');
      assert.equal(account.phone, '+2290197000001');
      assert.equal(account.country, 'BJ');
      assert.equal(account.currency, 'XOF');
      assert.equal(account.iban, null);
      assert.equal(account.holder_name, 'Boutique Adjoa SARL');
      assert.deepEqual(account.metadata, { branch: 'cotonou' });
      assert.equal(account.status, 'cooling');
      assert.equal(account.usable_from, plusMs(TEST_COOLING));
      assert.equal(account.environment, 'test');
      assert.equal(account.sandbox, true);
      assert.deepEqual(await read(merchant.testKey, account.id), account);

      const events = await eventsOf(merchant.testKey, account.id);
      assert.deepEqual(
        events.map((event) => event.type),
        ['settlement_account.created'],
      );
      assert.equal(events[0]!.data.object.id, account.id);
      assert.equal(events[0]!.data.object.phone, '+2290197000001');
      assert.equal(events[0]!.data.object.status, 'cooling', 'as of the change, whenever the event is read or delivered');
    });

    it('registers bank accounts from an IBAN (stored compact, its country by default) and from a UEMOA RIB with the country', async () => {
      const merchant = await t.newMerchant();
      const fromIban = await create(merchant.testKey, bank());
      assert.equal(fromIban.iban, IBAN_BJ);
      assert.equal(fromIban.country, 'BJ');
      assert.equal(fromIban.currency, 'XOF');
      assert.equal(fromIban.bank_name, 'Banque Atlantique');
      assert.equal(fromIban.operator, null);
      assert.equal(fromIban.phone, null);
      const fromRib = await create(merchant.testKey, { kind: 'bank', country: 'TG', rib: 'TG009 06043 103465004000 70', holder_name: 'Adjoa Mensah' });
      assert.equal(fromRib.iban, IBAN_TG);
      assert.equal(fromRib.country, 'TG');
      assert.equal(fromRib.bank_name, null);
      const ivorian = await create(merchant.testKey, bank({ iban: IBAN_CI.toLowerCase(), country: 'ci' }));
      assert.equal(ivorian.iban, IBAN_CI);
      assert.equal(ivorian.country, 'CI');
      assert.deepEqual(await written(merchant.merchantId), { accounts: 3, events: 3 });
    });

    it('refuses each bad account with its own code and writes nothing', async () => {
      const merchant = await t.newMerchant();
      const ribChanged = `${RIB_TG.slice(0, 12)}${(Number(RIB_TG[12]) + 1) % 10}${RIB_TG.slice(13)}`;
      const ibanChanged = `${IBAN_BJ.slice(0, 20)}${(Number(IBAN_BJ[20]) + 1) % 10}${IBAN_BJ.slice(21)}`;
      const cases: Array<[string, Wire, number, ErrorCode, string?]> = [
        ['a wallet in a country not served', wallet({ country: 'GH' }), 400, 'invalid_operator', 'country'],
        ['a wallet with an operator that does not pay out there', wallet({ operator: 'orange_ci' }), 400, 'invalid_operator', 'operator'],
        ['a wallet with an unknown operator', wallet({ operator: 'nope' }), 400, 'invalid_operator', 'operator'],
        ['a wallet with a number that is no mobile number of the country', wallet({ phone: '12345' }), 400, 'invalid_phone', 'phone'],
        ['a wallet without its number', wallet({ phone: undefined }), 400, 'validation_error', 'phone'],
        ['a wallet without its country', wallet({ country: undefined }), 400, 'validation_error', 'country'],
        ['a wallet with an IBAN', wallet({ iban: IBAN_BJ }), 400, 'validation_error', 'iban'],
        ['a bank account with an IBAN one digit off', bank({ iban: ibanChanged }), 400, 'invalid_iban', 'iban'],
        ['a bank account with a RIB one digit off', { kind: 'bank', country: 'TG', rib: ribChanged, holder_name: 'A' }, 400, 'invalid_iban', 'rib'],
        ['a bank account with a RIB and no country', { kind: 'bank', rib: RIB_TG, holder_name: 'A' }, 400, 'validation_error', 'country'],
        ['a bank account with a RIB given with another country', { kind: 'bank', country: 'BJ', rib: RIB_TG, holder_name: 'A' }, 400, 'invalid_iban', 'rib'],
        ['a bank account with an IBAN of another country than its own', bank({ country: 'BJ', iban: IBAN_CI }), 400, 'invalid_iban', 'iban'],
        ['a bank account with a valid IBAN of a country not served', bank({ iban: 'FR76 3000 6000 0112 3456 7890 189' }), 400, 'invalid_iban', 'iban'],
        ['a bank account in a country not served', bank({ country: 'SN' }), 400, 'validation_error', 'country'],
        ['a bank account with both an IBAN and a RIB', bank({ country: 'TG', iban: IBAN_TG, rib: RIB_TG }), 400, 'validation_error', 'rib'],
        ['a bank account with neither', bank({ iban: undefined }), 400, 'validation_error', 'iban'],
        ['a bank account with a phone', bank({ phone: '0197000001' }), 400, 'validation_error', 'phone'],
        ['a holder name of spaces', wallet({ holder_name: '   ' }), 400, 'validation_error', 'holder_name'],
        ['a holder name too long', wallet({ holder_name: 'x'.repeat(141) }), 400, 'validation_error'],
        ['another kind', wallet({ kind: 'cash' }), 400, 'validation_error'],
        ['an unknown field', wallet({ nickname: 'main' }), 400, 'validation_error'],
        ['metadata of another type', wallet({ metadata: { n: 1 } }), 400, 'validation_error'],
      ];
      for (const [label, payload, status, code, field] of cases) {
        const res = await send(merchant.testKey, 'POST', '/settlement-accounts/', payload);
        assert.equal(res.statusCode, status, `${label}: ${res.body}`);
        assert.equal(res.json().error.code, code, label);
        if (field) assert.equal(res.json().error.field, field, label);
      }
      assert.deepEqual(await written(merchant.merchantId), { accounts: 0, events: 0 });
    });

    it('honours an Idempotency-Key: the same request answers the same account, another body with the key is refused', async () => {
      const merchant = await t.newMerchant();
      const key = { 'idempotency-key': newId() };
      const first = await send(merchant.testKey, 'POST', '/settlement-accounts/', wallet(), key);
      const again = await send(merchant.testKey, 'POST', '/settlement-accounts/', wallet(), key);
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(again.statusCode, 201, again.body);
      assert.equal(again.json().id, first.json().id);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      const other = await send(merchant.testKey, 'POST', '/settlement-accounts/', wallet({ phone: '0197000002' }), key);
      assert.equal(other.statusCode, 422, other.body);
      assert.equal(other.json().error.code, 'idempotency_key_reused');
      assert.deepEqual(await written(merchant.merchantId), { accounts: 1, events: 1 });
      // Without a key, each request registers an account.
      await create(merchant.testKey, wallet());
      assert.equal((await written(merchant.merchantId)).accounts, 2);
    });

    it('makes an account usable only once its cooling period is over: test as configured, live 24 h', async () => {
      const merchant = await t.newMerchant();
      const account = await create(merchant.testKey, wallet());
      await refusedWith(t.services.settlementAccounts.usable(scope(merchant.merchantId), account.id), 'settlement_account_cooling', new RegExp(account.usable_from));
      clock.advance(TEST_COOLING - 1);
      await refusedWith(t.services.settlementAccounts.usable(scope(merchant.merchantId), account.id), 'settlement_account_cooling');
      assert.equal((await read(merchant.testKey, account.id)).status, 'cooling');
      clock.advance(1);
      assert.equal((await t.services.settlementAccounts.usable(scope(merchant.merchantId), account.id)).id, account.id);
      assert.equal((await read(merchant.testKey, account.id)).status, 'usable');

      const live = await create(merchant.liveKey, bank());
      assert.equal(live.environment, 'live');
      assert.equal(live.usable_from, plusMs(LIVE_COOLING));
      clock.advance(LIVE_COOLING - 1);
      await refusedWith(t.services.settlementAccounts.usable(scope(merchant.merchantId, 'live'), live.id), 'settlement_account_cooling');
      clock.advance(1);
      assert.equal((await t.services.settlementAccounts.usable(scope(merchant.merchantId, 'live'), live.id)).iban, IBAN_BJ);
    });

    it('restarts the cooling when where the money goes changes, not for a description or metadata change; each change is an event', async () => {
      const merchant = await t.newMerchant();
      const account = await create(merchant.testKey, wallet());
      clock.advance(TEST_COOLING);
      assert.equal((await read(merchant.testKey, account.id)).status, 'usable');

      const described = await patch(merchant.testKey, account.id, { description: 'Savings', metadata: { ledger: '512' } });
      assert.equal(described.statusCode, 200, described.body);
      assert.equal(described.json().usable_from, account.usable_from);
      assert.equal(described.json().status, 'usable');
      assert.equal(described.json().description, 'Savings');
      assert.deepEqual(described.json().metadata, { ledger: '512' });
      await t.services.settlementAccounts.usable(scope(merchant.merchantId), account.id);

      const moved = await patch(merchant.testKey, account.id, { phone: '+229 01 97 00 00 02' });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal(moved.json().phone, '+2290197000002');
      assert.equal(moved.json().usable_from, plusMs(TEST_COOLING));
      assert.equal(moved.json().status, 'cooling');
      assert.equal(moved.json().description, 'Savings', 'what the patch leaves out stays');
      await refusedWith(t.services.settlementAccounts.usable(scope(merchant.merchantId), account.id), 'settlement_account_cooling');

      // Every destination field restarts it, and so does another operator of the country.
      for (const change of [{ holder_name: 'Adjoa Mensah' }, { operator: 'moov_bj' }, { country: 'TG', operator: 'tmoney_tg', phone: '90000001' }]) {
        clock.advance(TEST_COOLING);
        const res = await patch(merchant.testKey, account.id, change);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().usable_from, plusMs(TEST_COOLING), JSON.stringify(change));
      }
      const final = await read(merchant.testKey, account.id);
      assert.deepEqual([final.country, final.operator, final.phone, final.holder_name], ['TG', 'tmoney_tg', '+22890000001', 'Adjoa Mensah']);

      // The same values again change nothing: no event.
      const unchanged = await patch(merchant.testKey, account.id, { operator: 'tmoney_tg', description: 'Savings' });
      assert.equal(unchanged.statusCode, 200, unchanged.body);
      assert.equal(unchanged.json().updated_at, final.updated_at);
      assert.deepEqual(
        (await eventsOf(merchant.testKey, account.id)).map((event) => event.type),
        ['settlement_account.created', ...Array(5).fill('settlement_account.updated')],
      );
    });

    it('changes a bank account’s IBAN (or RIB) with a new cooling, and refuses a kind change or another kind’s fields, writing nothing', async () => {
      const merchant = await t.newMerchant();
      const account = await create(merchant.testKey, bank({ country: 'TG', iban: IBAN_TG }));
      clock.advance(TEST_COOLING);
      const before = await written(merchant.merchantId);
      const cases: Array<[string, Wire, number, ErrorCode]> = [
        ['a kind change', { kind: 'wallet' }, 400, 'validation_error'],
        ['a wallet’s field', { phone: '0197000001' }, 400, 'validation_error'],
        ['a country its IBAN is not of', { country: 'BJ' }, 400, 'invalid_iban'],
        ['an IBAN one digit off', { iban: `${IBAN_TG.slice(0, 27)}1` }, 400, 'invalid_iban'],
        ['an empty holder name', { holder_name: ' ' }, 400, 'validation_error'],
      ];
      for (const [label, body, status, code] of cases) {
        const res = await patch(merchant.testKey, account.id, body);
        assert.equal(res.statusCode, status, `${label}: ${res.body}`);
        assert.equal(res.json().error.code, code, label);
      }
      assert.deepEqual(await written(merchant.merchantId), before);
      assert.equal((await read(merchant.testKey, account.id)).status, 'usable');

      const sameKind = await patch(merchant.testKey, account.id, { kind: 'bank', bank_name: 'Orabank' });
      assert.equal(sameKind.statusCode, 200, sameKind.body);
      assert.equal(sameKind.json().bank_name, 'Orabank');
      assert.equal(sameKind.json().usable_from, plusMs(TEST_COOLING), 'the bank’s name is part of where the money goes');
      clock.advance(TEST_COOLING);
      const moved = await patch(merchant.testKey, account.id, { country: 'BJ', rib: 'BJ061 01001 001443900007 69', bank_name: null });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal(moved.json().iban, IBAN_BJ);
      assert.equal(moved.json().country, 'BJ');
      assert.equal(moved.json().bank_name, null);
      assert.equal(moved.json().status, 'cooling');
    });

    it('removes an account for good: still readable, left out of lists unless asked, never usable, not changeable; removing again answers it as it is', async () => {
      const merchant = await t.newMerchant();
      const kept = await create(merchant.testKey, wallet());
      const account = await create(merchant.testKey, bank());
      clock.advance(TEST_COOLING);
      const removed = await send(merchant.testKey, 'DELETE', `/settlement-accounts/${account.id}`);
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal(removed.json().status, 'removed');
      assert.equal(removed.json().removed_at, clock.now().toISOString());
      clock.advance(1000);
      const again = await send(merchant.testKey, 'DELETE', `/settlement-accounts/${account.id}`);
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().removed_at, removed.json().removed_at);
      assert.deepEqual(
        (await eventsOf(merchant.testKey, account.id)).map((event) => event.type),
        ['settlement_account.created', 'settlement_account.removed'],
      );

      assert.equal((await read(merchant.testKey, account.id)).status, 'removed');
      assert.deepEqual(
        (await listed(merchant.testKey)).data.map((a: Wire) => a.id),
        [kept.id],
      );
      assert.deepEqual(
        (await listed(merchant.testKey, '?include_removed=true')).data.map((a: Wire) => a.id),
        [account.id, kept.id],
      );
      const changed = await patch(merchant.testKey, account.id, { description: 'back' });
      assert.equal(changed.statusCode, 409, changed.body);
      assert.equal(changed.json().error.code, 'settlement_account_removed');
      await refusedWith(t.services.settlementAccounts.usable(scope(merchant.merchantId), account.id), 'settlement_account_removed');
      assert.equal((await t.services.settlementAccounts.usable(scope(merchant.merchantId), kept.id)).id, kept.id);
    });

    it('applies racing changes one after the other (version-checked): none lost, one event each', async () => {
      const merchant = await t.newMerchant();
      const account = await create(merchant.testKey, wallet());
      const changes = Array.from({ length: 6 }, (_, i) => ({ metadata: { [`k${i}`]: 'v' }, description: `change ${i}` }));
      const results = await Promise.all(changes.map((change) => patch(merchant.testKey, account.id, change)));
      assert.ok(
        results.every((res) => res.statusCode === 200),
        results.map((res) => res.body).join('\n'),
      );
      const row = await t.services.database.db.selectFrom('settlement_accounts').select(['version', 'description']).where('id', '=', account.id).executeTakeFirstOrThrow();
      assert.equal(Number(row.version), 1 + changes.length);
      assert.ok(changes.some((change) => change.description === row.description));
      assert.equal((await eventsOf(merchant.testKey, account.id)).filter((event) => event.type === 'settlement_account.updated').length, changes.length);
    });

    it('lists newest first, filters by kind in any case, and pages with cursors bound to the filters', async () => {
      const merchant = await t.newMerchant();
      const first = await create(merchant.testKey, wallet());
      const second = await create(merchant.testKey, bank());
      const third = await create(merchant.testKey, wallet({ phone: '0197000002' }));
      assert.deepEqual(
        (await listed(merchant.testKey)).data.map((a: Wire) => a.id),
        [third.id, second.id, first.id],
      );
      assert.deepEqual(
        (await listed(merchant.testKey, '?kind=WALLET')).data.map((a: Wire) => a.id),
        [third.id, first.id],
      );
      assert.deepEqual(
        (await listed(merchant.testKey, '?kind=bank')).data.map((a: Wire) => a.id),
        [second.id],
      );
      const page1 = await listed(merchant.testKey, '?limit=2');
      assert.equal(page1.has_more, true);
      const page2 = await listed(merchant.testKey, `?limit=2&starting_after=${encodeURIComponent(page1.next_cursor)}`);
      assert.deepEqual(
        page2.data.map((a: Wire) => a.id),
        [first.id],
      );
      assert.equal(page2.has_more, false);
      const otherFilters = await send(merchant.testKey, 'GET', `/settlement-accounts/?limit=2&kind=bank&starting_after=${encodeURIComponent(page1.next_cursor)}`);
      assert.equal(otherFilters.statusCode, 400);
      assert.equal(otherFilters.json().error.code, 'invalid_cursor');
      const badKind = await send(merchant.testKey, 'GET', '/settlement-accounts/?kind=cash');
      assert.equal(badKind.statusCode, 400);
      assert.equal(badKind.json().error.code, 'validation_error');
    });

    it('needs settlements:write to register, change or remove and settlements:read to read', async () => {
      const owner = await t.newMerchant();
      const account = await create(owner.testKey, wallet());
      const reader = await t.newMerchant({ scopes: ['settlements:read'] });
      for (const [method, url, body] of [
        ['POST', '/settlement-accounts/', wallet()],
        ['PATCH', `/settlement-accounts/${account.id}`, { description: 'x' }],
        ['DELETE', `/settlement-accounts/${account.id}`, undefined],
      ] as const) {
        const res = await send(reader.testKey, method, url, body);
        assert.equal(res.statusCode, 403, `${method} ${res.body}`);
        assert.equal(res.json().error.code, 'insufficient_scope');
      }
      assert.equal((await send(reader.testKey, 'GET', '/settlement-accounts/')).statusCode, 200);
      assert.deepEqual(await written(reader.merchantId), { accounts: 0, events: 0 });

      const writer = await t.newMerchant({ scopes: ['settlements:write'] });
      const created = await send(writer.testKey, 'POST', '/settlement-accounts/', wallet());
      assert.equal(created.statusCode, 201, created.body);
      for (const url of ['/settlement-accounts/', `/settlement-accounts/${created.json().id}`]) {
        const res = await send(writer.testKey, 'GET', url);
        assert.equal(res.statusCode, 403, res.body);
        assert.equal(res.json().error.code, 'insufficient_scope');
      }
    });

    it('keeps merchants and environments apart: another merchant’s account is 404 everywhere, a live one unseen by a test key', async () => {
      const owner = await t.newMerchant();
      const stranger = await t.newMerchant();
      const account = await create(owner.testKey, wallet());
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { description: 'mine now' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await send(stranger.testKey, method, `/settlement-accounts/${account.id}`, body);
        assert.equal(res.statusCode, 404, `${method} ${res.body}`);
        assert.equal(res.json().error.code, 'not_found');
      }
      assert.deepEqual((await listed(stranger.testKey)).data, []);
      await refusedWith(t.services.settlementAccounts.usable(scope(stranger.merchantId), account.id), 'not_found');
      assert.equal((await read(owner.testKey, account.id)).status, 'cooling', 'untouched by the stranger');

      const live = await create(owner.liveKey, wallet());
      const unseen = await send(owner.testKey, 'GET', `/settlement-accounts/${live.id}`);
      assert.equal(unseen.statusCode, 404);
      assert.match(unseen.json().error.message, /in live: use a live key/);
      assert.deepEqual(
        (await listed(owner.liveKey)).data.map((a: Wire) => a.id),
        [live.id],
      );
      assert.deepEqual(
        (await listed(owner.testKey)).data.map((a: Wire) => a.id),
        [account.id],
      );
      await refusedWith(t.services.settlementAccounts.usable(scope(owner.merchantId, 'test'), live.id), 'not_found');
      await refusedWith(t.services.settlementAccounts.usable(scope(owner.merchantId), newId()), 'not_found');
      const notAnId = await send(owner.testKey, 'GET', '/settlement-accounts/not-an-id');
      assert.equal(notAnId.statusCode, 404);
    });
  });
}
