/** Lists in the one pagination shape, their filters, metadata and failure codes, on every database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { sandboxFailureCodes } from '../../src/operators/sandbox/sandbox-rules.js';
import { collectClient, direct, hosted } from '../support/collect-client.js';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const target of testDatabases()) {
  describe(`lists, metadata and failure codes on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let api: ReturnType<typeof collectClient>;
    let key: string;
    const clock = new FakeClock();

    before(async () => {
      t = await buildTestApp(target, { clock });
      key = (await t.newMerchant()).testKey;
      api = collectClient(t.app, key);
    });
    after(() => t.close());

    const get = (url: string, apiKey = key) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${apiKey}` } });
    const getOk = async (url: string): Promise<Wire> => {
      const res = await get(url);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    /** Every page of a list, read forwards with `starting_after`. */
    const readAll = async (path: string, limit: number): Promise<Wire[][]> => {
      const pages: Wire[][] = [];
      for (let cursor = ''; ;) {
        const separator = path.includes('?') ? '&' : '?';
        const page = await getOk(`${path}${separator}limit=${limit}${cursor ? `&starting_after=${cursor}` : ''}`);
        pages.push(page.data);
        if (!page.has_more) return pages;
        cursor = page.data.at(-1).id;
      }
    };

    describe('payments list', () => {
      let tag: string;
      let created: Wire[];

      before(async () => {
        // A fresh merchant so the list holds exactly these payments.
        const own = await t.newMerchant();
        key = own.testKey;
        api = collectClient(t.app, key);
        tag = newId();
        created = [];
        for (let i = 0; i < 7; i++) {
          clock.advance(60_000);
          const body =
            i % 3 === 2
              ? hosted({ metadata: { batch: tag, position: String(i) } })
              : direct({ reference: i === 1 ? `FAIL-${newId()}` : `ORDER-${newId()}`, metadata: { position: String(i) } });
          created.push(await api.createOk(body));
        }
      });

      it('pages newest first through every payment exactly once, and back with ending_before', async () => {
        const pages = await readAll('/collect/payments', 3);
        assert.deepEqual(
          pages.map((p) => p.length),
          [3, 3, 1],
        );
        const ids = pages.flat().map((p) => p.id);
        assert.deepEqual(ids, created.map((p) => p.id).reverse(), 'newest first, none twice, none missing');
        assert.equal(pages[0]![0]!.object, 'collect.payment');

        const back = await getOk(`/collect/payments?limit=3&ending_before=${pages[2]![0]!.id}`);
        assert.deepEqual(
          back.data.map((p: Wire) => p.id),
          pages[1]!.map((p) => p.id),
          'the page before, still newest first',
        );
        assert.equal(back.has_more, true, 'newer payments remain above it');
        const top = await getOk(`/collect/payments?limit=3&ending_before=${pages[1]![0]!.id}`);
        assert.equal(top.has_more, false);
      });

      it('filters by status, mode, operator (slug or alias), reference and metadata', async () => {
        const failed = await getOk('/collect/payments?status=failed');
        assert.deepEqual(
          failed.data.map((p: Wire) => p.id),
          [created[1]!.id],
        );
        const hostedOnes = await getOk('/collect/payments?mode=hosted');
        assert.deepEqual(
          hostedOnes.data.map((p: Wire) => p.id),
          [created[5]!.id, created[2]!.id],
        );
        const mtn = await getOk('/collect/payments?operator=MTN_BJ');
        assert.equal(mtn.data.length, 5);
        const byReference = await getOk(`/collect/payments?reference=${created[3]!.reference}`);
        assert.deepEqual(
          byReference.data.map((p: Wire) => p.id),
          [created[3]!.id],
        );
        const byMetadata = await getOk(`/collect/payments?metadata[batch]=${tag}`);
        assert.deepEqual(
          byMetadata.data.map((p: Wire) => p.id),
          [created[5]!.id, created[2]!.id],
        );
        const combined = await getOk(`/collect/payments?metadata[position]=5&mode=hosted`);
        assert.deepEqual(
          combined.data.map((p: Wire) => p.id),
          [created[5]!.id],
        );
        assert.deepEqual((await getOk('/collect/payments?metadata[position]=5&mode=direct')).data, []);
        // A metadata-filtered list pages like any other.
        const metadataPages = await readAll(`/collect/payments?metadata[batch]=${tag}`, 1);
        assert.deepEqual(
          metadataPages.flat().map((p) => p.id),
          [created[5]!.id, created[2]!.id],
        );
      });

      it('filters by creation date range, inclusive', async () => {
        const from = created[2]!.created_at;
        const to = created[4]!.created_at;
        const page = await getOk(`/collect/payments?created_gte=${from}&created_lte=${to}`);
        assert.deepEqual(
          page.data.map((p: Wire) => p.id),
          [created[4]!.id, created[3]!.id, created[2]!.id],
        );
      });

      it('matches an operator alias to its operator', async () => {
        const togo = await api.createOk(direct({ country: 'TG', operator: 'moov_tg', customer: { phone: '96000000' } }));
        assert.equal(togo.operator, 'flooz_tg');
        const page = await getOk('/collect/payments?operator=moov_tg');
        assert.deepEqual(
          page.data.map((p: Wire) => p.id),
          [togo.id],
        );
      });

      it('shows only the key’s own merchant', async () => {
        const other = await t.newMerchant();
        const res = await get('/collect/payments', other.testKey);
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json().data, []);
        assert.equal(res.json().has_more, false);
      });

      it('refuses bad list parameters with 400 validation_error', async () => {
        for (const query of [
          'limit=0',
          'limit=101',
          'status=paid',
          'mode=push',
          'operator=nope',
          'created_gte=yesterday',
          'created_gte=2016-12-31T23:59:60Z',
          'stauts=failed',
          `starting_after=${created[0]!.id}&ending_before=${created[1]!.id}`,
          'metadata[a]=1&metadata[b]=2',
        ]) {
          const res = await get(`/collect/payments?${query}`);
          assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
          assert.equal(res.json().error.code, 'validation_error', query);
        }
      });
    });

    describe('refunds', () => {
      it('reads one refund by id, and pages a payment’s refunds newest first', async () => {
        const payment = await api.createOk(direct({ amount: 3000 }));
        const refunds: Wire[] = [];
        for (const amount of [500, 700, 900]) {
          const res = await api.post(payment.reference, 'refunds', { amount });
          assert.equal(res.statusCode, 201, res.body);
          refunds.push(res.json());
        }
        const one = await getOk(`/collect/payments/${payment.reference}/refunds/${refunds[1]!.id}`);
        assert.equal(one.id, refunds[1]!.id);
        assert.equal(one.amount, 700);
        assert.equal(one.object, 'collect.refund');

        const pages = await readAll(`/collect/payments/${payment.reference}/refunds`, 2);
        assert.deepEqual(
          pages.map((p) => p.map((r) => r.amount)),
          [[900, 700], [500]],
        );

        const other = await api.createOk(direct());
        const elsewhere = await get(`/collect/payments/${other.reference}/refunds/${refunds[0]!.id}`);
        assert.equal(elsewhere.statusCode, 404, 'a refund is found only under its own payment');
        assert.equal(elsewhere.json().error.code, 'not_found');
        assert.equal((await get(`/collect/payments/${payment.reference}/refunds/${newId()}`)).statusCode, 404);
      });
    });

    describe('events', () => {
      it('filters by the reference they are about, and pages back with ending_before', async () => {
        const payment = await api.createOk(direct({ metadata: { order: 'A-17' } }));
        const noise = await api.createOk(direct());
        const page = await getOk(`/events?reference=${payment.reference}`);
        assert.deepEqual(
          page.data.map((e: Wire) => e.type),
          ['collect.payment.completed', 'collect.payment.processing', 'collect.payment.created'],
        );
        assert.ok(page.data.every((e: Wire) => e.data.object.reference === payment.reference));
        assert.deepEqual(page.data[0].data.object.metadata, { order: 'A-17' }, 'events carry the metadata');
        assert.ok(!page.data.some((e: Wire) => e.data.object.reference === noise.reference));

        const oldest = page.data.at(-1).id;
        const newer = await getOk(`/events?reference=${payment.reference}&ending_before=${oldest}&limit=1`);
        assert.deepEqual(
          newer.data.map((e: Wire) => e.id),
          [page.data[1].id],
        );
        assert.equal(newer.has_more, true);
        assert.equal((await get('/events?created_lte=2016-12-31T23:59:60Z')).statusCode, 400);
      });
    });

    describe('webhook endpoints list', () => {
      it('pages like every other list', async () => {
        const own = await t.newMerchant();
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/v1/webhook-endpoints',
            headers: { authorization: `Bearer ${own.testKey}` },
            payload: { url: `https://shop.example/hooks/${i}`, events: ['collect.payment.completed'] },
          });
          assert.equal(res.statusCode, 201, res.body);
          ids.push(res.json().id);
        }
        const first = (await get('/webhook-endpoints?limit=2', own.testKey)).json();
        assert.equal(first.has_more, true);
        const second = (await get(`/webhook-endpoints?limit=2&starting_after=${first.data[1].id}`, own.testKey)).json();
        assert.equal(second.has_more, false);
        assert.deepEqual(
          [...first.data, ...second.data].map((e: Wire) => e.id),
          [...ids].reverse(),
        );
      });
    });

    describe('metadata', () => {
      it('is stored and returned as given, {} when none', async () => {
        const metadata = { order_id: 'A-42', 'customer.segment': 'étudiant', empty: '' };
        const payment = await api.createOk(direct({ metadata }));
        assert.deepEqual(payment.metadata, metadata);
        assert.deepEqual((await getOk(`/collect/payments/${payment.reference}`)).metadata, metadata);
        assert.deepEqual((await api.createOk(direct())).metadata, {});
      });

      it('refuses metadata beyond its limits with 400 and stores nothing', async () => {
        const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
        const limits = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`.padEnd(40, 'x'), 'v'.repeat(500)]));
        assert.equal((await api.create(direct({ metadata: limits }))).statusCode, 201, 'exactly at every limit is accepted');
        for (const metadata of [many, { ['k'.repeat(41)]: 'v' }, { k: 'v'.repeat(501) }, { k: 1 }, { k: null }, { k: { nested: 'v' } }, { '': 'v' }, ['v']]) {
          const reference = `META-${newId()}`;
          const res = await api.create(direct({ reference, metadata }));
          assert.equal(res.statusCode, 400, `${JSON.stringify(metadata).slice(0, 60)}: ${res.body}`);
          assert.equal(res.json().error.code, 'validation_error');
          assert.equal((await api.get(reference)).statusCode, 404, 'nothing stored');
        }
      });
    });

    describe('failure codes', () => {
      const created = async (body: Wire) => api.createOk(body);

      it('a completed payment has none; each failure says why, in the payment and its event', async () => {
        assert.equal((await created(direct())).failure_code, null);
        assert.equal((await created(direct({ reference: `FAIL-${newId()}` }))).failure_code, 'operator_declined');
        assert.equal((await created(direct({ customer: { phone: '0197000001' } }))).failure_code, 'operator_declined');
        const cancelled = await created(direct({ customer: { phone: '0197000003' } }));
        assert.deepEqual([cancelled.status, cancelled.failure_code], ['cancelled', 'payer_declined']);
        const event = (await getOk(`/events?reference=${cancelled.reference}&type=collect.payment.cancelled`)).data[0];
        assert.equal(event.data.object.failure_code, 'payer_declined');
      });

      it('the sandbox produces each operator failure code with FAIL_<CODE> in the reference', async () => {
        for (const code of sandboxFailureCodes) {
          const payment = await created(direct({ reference: `order-${newId().slice(0, 8)}-fail_${code}` }));
          assert.deepEqual([payment.status, payment.failure_code], ['failed', code], code);
        }
      });

      it('cancel, expiry and one-time codes give their own codes', async () => {
        const pending = await created(direct({ reference: `PENDING-${newId()}` }));
        const cancelled = await api.post(pending.reference, 'cancel');
        assert.equal(cancelled.json().failure_code, 'cancelled_by_merchant');

        const waiting = await created(hosted({ expires_in_seconds: 60 }));
        clock.advance(61_000);
        await t.services.payments.expireDue();
        const expired = await getOk(`/collect/payments/${waiting.reference}`);
        assert.deepEqual([expired.status, expired.failure_code], ['expired', 'expired']);

        const otp = { country: 'CI', operator: 'orange_ci', customer: { phone: '0700000000' } };
        const refused = await created(direct(otp));
        assert.equal((await api.post(refused.reference, 'confirm', { otp: '000000' })).json().failure_code, 'otp_failed');
        const wrong = await created(direct(otp));
        for (let i = 0; i < 3; i++) await api.post(wrong.reference, 'confirm', { otp: '999999' });
        const failed = await getOk(`/collect/payments/${wrong.reference}`);
        assert.deepEqual([failed.status, failed.failure_code], ['failed', 'otp_failed']);
      });
    });
  });
}
