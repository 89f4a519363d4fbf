/**
 * Payment links over the API (docs/payment-links.md), on every database: create (fixed and open
 * amounts, one or several countries), read, list with cursors and filters, change, deactivate, each
 * with its event; refusals with their stable codes and nothing written; scopes; environments and
 * merchants kept apart; the live-collection rule; Idempotency-Key replays; the QR codes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const fixed = (overrides: Wire = {}) => ({ amount_minor: 500000, country: 'BJ', description: 'Wax fabric, 6 yards', ...overrides });

for (const target of testDatabases()) {
  describe(`payment links API on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    const clock = new FakeClock(new Date());

    before(async () => {
      t = await buildTestApp(target, { clock });
    });
    after(() => t.close());

    const send = (key: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}`, ...headers }, ...(payload ? { payload } : {}) });
    const create = async (key: string, body: object) => {
      const res = await send(key, 'POST', '/payment-links', body);
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as Wire;
    };
    const eventsOf = async (key: string, id: string) => {
      const res = await send(key, 'GET', `/events?reference=${id}&limit=100`);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().data as Wire[]).reverse();
    };
    const rows = async (merchantId: string) => {
      const db = t.services.database.db;
      const count = async (table: 'payment_links' | 'events') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .where('merchant_id', '=', merchantId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      return { links: await count('payment_links'), events: await count('events') };
    };

    it('creates a fixed-amount link: its public url (an unguessable slug, not the id), both units, active, with payment_link.created', async () => {
      const merchant = await t.newMerchant();
      const link = await create(merchant.testKey, fixed({ metadata: { product: 'wax-6y' } }));
      assert.equal(link.object, 'payment_link');
      assert.equal(link.status, 'active');
      assert.equal(link.amount, 5000);
      assert.equal(link.amount_minor, 500000);
      assert.equal(link.min_amount_minor, null);
      assert.equal(link.currency, 'XOF');
      assert.deepEqual(link.countries, ['BJ']);
      assert.equal(link.reusable, true);
      assert.equal(link.completed_payments, 0);
      assert.equal(link.sandbox, true);
      assert.deepEqual(link.metadata, { product: 'wax-6y' });
      const slug = new URL(link.url).pathname.replace('/pay/', '');
      assert.match(slug, /^[A-Za-z0-9_-]{32}$/);
      assert.equal(Buffer.from(slug, 'base64url').length, 24);
      assert.ok(!link.url.includes(link.id));
      const read = await send(merchant.testKey, 'GET', `/payment-links/${link.id}`);
      assert.deepEqual(read.json(), link);
      const events = await eventsOf(merchant.testKey, link.id);
      assert.deepEqual(
        events.map((e) => e.type),
        ['payment_link.created'],
      );
      assert.equal(events[0]!.data.object.url, link.url);
    });

    it('creates an open-amount link with bounds and several countries', async () => {
      const merchant = await t.newMerchant();
      const link = await create(merchant.testKey, {
        min_amount_minor: 100000,
        max_amount_minor: 5000000,
        countries: ['BJ', 'TG'],
        description: 'Donation',
        reusable: true,
        max_payments: 10,
      });
      assert.equal(link.amount, null);
      assert.equal(link.amount_minor, null);
      assert.equal(link.min_amount, 1000);
      assert.equal(link.max_amount_minor, 5000000);
      assert.deepEqual(link.countries, ['BJ', 'TG']);
      assert.equal(link.max_payments, 10);
    });

    it('refuses bad links with stable codes and writes nothing', async () => {
      const merchant = await t.newMerchant();
      const cases: Array<[Wire, number, string, string?]> = [
        [fixed({ amount_minor: 500050 }), 400, 'validation_error', 'amount_minor'],
        [fixed({ amount_minor: 100 }), 400, 'amount_too_low', 'amount_minor'],
        [fixed({ min_amount_minor: 100000 }), 400, 'validation_error', 'amount_minor'],
        [{ min_amount_minor: 900000, max_amount_minor: 100000, country: 'BJ', description: 'x' }, 400, 'validation_error', 'min_amount_minor'],
        [fixed({ country: undefined }), 400, 'validation_error', 'country'],
        [fixed({ countries: ['BJ'] }), 400, 'validation_error', 'countries'],
        [fixed({ country: 'FR' }), 400, 'invalid_operator', 'country'],
        [fixed({ description: '   ' }), 400, 'validation_error', 'description'],
        [fixed({ reusable: false, max_payments: 3 }), 400, 'validation_error', 'max_payments'],
        [fixed({ expires_at: new Date(clock.now().getTime() - 1000).toISOString() }), 400, 'validation_error', 'expires_at'],
        [fixed({ return_url: 'ftp://shop.example.com/' }), 400, 'validation_error', 'return_url'],
        [fixed({ colour: 'red' }), 400, 'validation_error'],
      ];
      for (const [body, status, code, field] of cases) {
        const res = await send(merchant.testKey, 'POST', '/payment-links', body);
        assert.equal(res.statusCode, status, `${JSON.stringify(body)} ${res.body}`);
        assert.equal(res.json().error.code, code, JSON.stringify(body));
        if (field) assert.equal(res.json().error.field, field, JSON.stringify(body));
      }
      assert.deepEqual(await rows(merchant.merchantId), { links: 0, events: 0 });
    });

    it('changes what may change, with payment_link.updated; amounts never change', async () => {
      const merchant = await t.newMerchant();
      const link = await create(merchant.testKey, fixed());
      const expires = new Date(clock.now().getTime() + 86_400_000).toISOString();
      const res = await send(merchant.testKey, 'PATCH', `/payment-links/${link.id}`, { description: 'New stock', expires_at: expires, max_payments: 5, metadata: { a: 'b' } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().description, 'New stock');
      assert.equal(res.json().expires_at, expires);
      assert.equal(res.json().max_payments, 5);
      assert.deepEqual(res.json().metadata, { a: 'b' });
      const cleared = await send(merchant.testKey, 'PATCH', `/payment-links/${link.id}`, { expires_at: null });
      assert.equal(cleared.json().expires_at, null);
      const amount = await send(merchant.testKey, 'PATCH', `/payment-links/${link.id}`, { amount_minor: 1000000 });
      assert.equal(amount.statusCode, 400);
      assert.deepEqual(
        (await eventsOf(merchant.testKey, link.id)).map((e) => e.type),
        ['payment_link.created', 'payment_link.updated', 'payment_link.updated'],
      );
    });

    it('deactivates once (inactive, payment_link.deactivated), again answers it as it is, and refuses changes after', async () => {
      const merchant = await t.newMerchant();
      const link = await create(merchant.testKey, fixed());
      const first = await send(merchant.testKey, 'POST', `/payment-links/${link.id}/deactivate`);
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.json().status, 'inactive');
      assert.ok(first.json().deactivated_at);
      const again = await send(merchant.testKey, 'POST', `/payment-links/${link.id}/deactivate`);
      assert.deepEqual(again.json(), first.json());
      const change = await send(merchant.testKey, 'PATCH', `/payment-links/${link.id}`, { description: 'Late' });
      assert.equal(change.statusCode, 409);
      assert.equal(change.json().error.code, 'payment_link_inactive');
      assert.deepEqual(
        (await eventsOf(merchant.testKey, link.id)).map((e) => e.type),
        ['payment_link.created', 'payment_link.deactivated'],
      );
    });

    it('shows expired once past expires_at', async () => {
      const merchant = await t.newMerchant();
      const link = await create(merchant.testKey, fixed({ expires_at: new Date(clock.now().getTime() + 60_000).toISOString() }));
      clock.advance(61_000);
      assert.equal((await send(merchant.testKey, 'GET', `/payment-links/${link.id}`)).json().status, 'expired');
    });

    it('lists newest first with cursors and the active filter, each environment and merchant apart', async () => {
      const merchant = await t.newMerchant();
      const other = await t.newMerchant();
      const links = [];
      for (let i = 0; i < 3; i += 1) links.push(await create(merchant.testKey, fixed({ description: `Item ${i}` })));
      await create(merchant.liveKey, fixed());
      await create(other.testKey, fixed());
      await send(merchant.testKey, 'POST', `/payment-links/${links[0]!.id}/deactivate`);
      const page1 = (await send(merchant.testKey, 'GET', '/payment-links?limit=2')).json();
      assert.deepEqual(
        page1.data.map((l: Wire) => l.id),
        [links[2]!.id, links[1]!.id],
      );
      assert.equal(page1.has_more, true);
      const page2 = (await send(merchant.testKey, 'GET', `/payment-links?limit=2&starting_after=${page1.data[1].id}`)).json();
      assert.deepEqual(
        page2.data.map((l: Wire) => l.id),
        [links[0]!.id],
      );
      const active = (await send(merchant.testKey, 'GET', '/payment-links?active=true')).json();
      assert.deepEqual(
        active.data.map((l: Wire) => l.id),
        [links[2]!.id, links[1]!.id],
      );
      const inactive = (await send(merchant.testKey, 'GET', '/payment-links?active=false')).json();
      assert.deepEqual(
        inactive.data.map((l: Wire) => l.id),
        [links[0]!.id],
      );
      const live = (await send(merchant.liveKey, 'GET', '/payment-links')).json();
      assert.equal(live.data.length, 1);
      const elsewhere = await send(other.testKey, 'GET', `/payment-links/${links[0]!.id}`);
      assert.equal(elsewhere.statusCode, 404);
      const wrongEnv = await send(merchant.liveKey, 'GET', `/payment-links/${links[1]!.id}`);
      assert.equal(wrongEnv.statusCode, 404);
      assert.match(wrongEnv.json().error.message, /use a test key/);
    });

    it('needs payment_links:read to read and payment_links:write to change', async () => {
      const reader = await t.newMerchant({ scopes: ['payment_links:read'] });
      const writer = await t.newMerchant({ scopes: ['payment_links:write'] });
      const collector = await t.newMerchant({ scopes: ['collect:write', 'collect:read'] });
      for (const key of [reader.testKey, collector.testKey]) {
        const res = await send(key, 'POST', '/payment-links', fixed());
        assert.equal(res.statusCode, 403);
        assert.equal(res.json().error.code, 'insufficient_scope');
      }
      const link = await create(writer.testKey, fixed());
      for (const path of [`/payment-links/${link.id}`, '/payment-links', `/payment-links/${link.id}/qr.svg`]) {
        const res = await send(writer.testKey, 'GET', path);
        assert.equal(res.statusCode, 403, path);
      }
      assert.equal((await send(reader.testKey, 'GET', '/payment-links')).statusCode, 200);
    });

    it('live: works before KYC, refused to a suspended merchant (account_inactive)', async () => {
      const fresh = await t.newMerchant({ kyc: 'pending' });
      const link = await create(fresh.liveKey, fixed());
      assert.equal(link.environment, 'live');
      assert.equal(link.sandbox, false);
      const suspended = await t.newMerchant();
      await t.services.merchants.updateMerchant(suspended.merchantId, { status: 'suspended' });
      const res = await send(suspended.liveKey, 'POST', '/payment-links', fixed());
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error.code, 'account_inactive');
      assert.equal((await rows(suspended.merchantId)).links, 0);
    });

    it('replays a create with the same Idempotency-Key: one link, one event', async () => {
      const merchant = await t.newMerchant();
      const headers = { 'idempotency-key': 'link-create-1' };
      const first = await send(merchant.testKey, 'POST', '/payment-links', fixed(), headers);
      const second = await send(merchant.testKey, 'POST', '/payment-links', fixed(), headers);
      assert.equal(first.statusCode, 201);
      assert.equal(second.statusCode, 201);
      assert.equal(second.json().id, first.json().id);
      assert.equal(second.headers['idempotent-replayed'] ?? 'true', 'true');
      const clash = await send(merchant.testKey, 'POST', '/payment-links', fixed({ description: 'Other' }), headers);
      assert.equal(clash.statusCode, 422, clash.body);
      assert.deepEqual(await rows(merchant.merchantId), { links: 1, events: 1 });
    });

    it('draws the link’s QR code as SVG and PNG, sized for printing', async () => {
      const merchant = await t.newMerchant();
      const link = await create(merchant.testKey, fixed());
      const svg = await send(merchant.testKey, 'GET', `/payment-links/${link.id}/qr.svg`);
      assert.equal(svg.statusCode, 200);
      assert.match(String(svg.headers['content-type']), /^image\/svg\+xml/);
      assert.match(svg.body, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* width="1024" height="1024"/);
      assert.match(svg.body, /<path [^>]*d="M/);
      const png = await send(merchant.testKey, 'GET', `/payment-links/${link.id}/qr.png?size=512`);
      assert.equal(png.statusCode, 200);
      assert.equal(png.headers['content-type'], 'image/png');
      const bytes = png.rawPayload;
      assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
      assert.equal(bytes.subarray(12, 16).toString('ascii'), 'IHDR');
      assert.equal(bytes.readUInt32BE(16), 512, 'width');
      assert.equal(bytes.readUInt32BE(20), 512, 'height');
      assert.equal((await send(merchant.testKey, 'GET', `/payment-links/${link.id}/qr.png?size=10`)).statusCode, 400);
      assert.equal((await send(merchant.testKey, 'GET', '/payment-links/0193a812-4c5d-7e6f-8091-a2b3c4d5e6f7/qr.svg')).statusCode, 404);
    });
  });
}
