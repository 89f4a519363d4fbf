/**
 * The SDK's bulk, settlement-account, settlement, transfer and export methods against a real Akwe
 * server (SQLite, listening on a free port): each call's answer is what the API documents, and
 * bulk.importCsv sends text as `text/csv` and a Blob as a `multipart/form-data` upload.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Akwe, InvalidRequestError } from '../src/index.js';
import { startRealServer, type RealServer } from './support/real-server.js';

describe('bulk, settlements, transfers and exports against a real server', () => {
  let server: RealServer;
  let akwe: Akwe;
  let run = 0;
  /** The Content-Type of each import_csv request the client sent. */
  const importContentTypes: string[] = [];
  const reference = (label: string) => `sdk-${label}-${Date.now()}-${++run}`;

  before(async () => {
    server = await startRealServer();
    const merchant = await server.testApp.newMerchant();
    const recordingFetch: typeof fetch = async (input, init) => {
      if (String(input).includes('/bulk-payments/import_csv/')) importContentTypes.push(new Request(input, init).headers.get('content-type') ?? '');
      return fetch(input, init);
    };
    akwe = new Akwe(merchant.testKey, { baseUrl: server.baseUrl, fetch: recordingFetch });
  });
  after(() => server.close());

  describe('bulk', () => {
    it('creates a batch from JSON lines, reads it and its lines, lists it, and validates it', async () => {
      const batch = await akwe.bulk.create({
        name: 'SDK salaries',
        country: 'BJ',
        items: [
          { beneficiary_name: 'Ada Dossou', phone: '0197000000', amount: 150_000, currency: 'XOF', reference: reference('line') },
          { beneficiary_name: 'Koffi Hounsa', phone: '0197000000', amount: 250_000, currency: 'XOF', reference: reference('line') },
        ],
      });
      assert.equal(batch.name, 'SDK salaries');
      assert.equal((await akwe.bulk.retrieve(batch.id)).id, batch.id);
      const lines = [];
      for await (const line of akwe.bulk.listItems(batch.id, { limit: 1 })) lines.push(line);
      assert.deepEqual(lines.map((line) => line.amount).sort(), [150_000, 250_000]);
      const listed = [];
      for await (const each of akwe.bulk.list()) listed.push(each.id);
      assert.ok(listed.includes(batch.id));
      const validated = await akwe.bulk.validate(batch.id);
      assert.notEqual(validated.status, batch.status, `validate moved the batch on from ${batch.status}`);
    });

    it('cancels a draft batch', async () => {
      const batch = await akwe.bulk.create({
        name: 'SDK to cancel',
        country: 'BJ',
        items: [{ beneficiary_name: 'Ada Dossou', phone: '0197000000', amount: 100_000, currency: 'XOF', reference: reference('cancel') }],
      });
      const cancelled = await akwe.bulk.cancel(batch.id);
      assert.equal(cancelled.status, 'cancelled');
    });

    it('imports the filled-in template as CSV text (text/csv) and as a file (multipart/form-data), each one line', async () => {
      const header = await akwe.bulk.template({ delimiter: 'comma' });
      assert.match(header, /reference/);
      assert.equal(header.trim().split(/\r?\n/).length, 1, 'the template is its header alone');
      const filled = (tag: string) => `${header}Ada Dossou,01 97 00 00 00,100000,XOF,${reference(tag)},BJ,mtn_bj,Salaire\r\n`;
      importContentTypes.length = 0;

      const fromText = await akwe.bulk.importCsv(filled('text'), { name: 'From text', country: 'BJ' });
      const fromFile = await akwe.bulk.importCsv(new File([filled('file')], 'salaries.csv', { type: 'text/csv' }), { name: 'From a file', country: 'BJ' });
      const fromBlob = await akwe.bulk.importCsv(new Blob([filled('blob')]), { name: 'From a blob', country: 'BJ' });
      for (const batch of [fromText, fromFile, fromBlob]) {
        const lines = [];
        for await (const line of akwe.bulk.listItems(batch.id)) lines.push(line);
        assert.equal(lines.length, 1, `${batch.name}: the line appended to the template`);
      }
      assert.equal(fromFile.name, 'From a file');
      assert.match(importContentTypes[0] ?? '', /^text\/csv/);
      assert.match(importContentTypes[1] ?? '', /^multipart\/form-data; boundary=/);
      assert.match(importContentTypes[2] ?? '', /^multipart\/form-data; boundary=/);
    });

    it('refuses a file with a bad line as a typed error naming the problem, storing nothing', async () => {
      const before = [];
      for await (const each of akwe.bulk.list()) before.push(each.id);
      const bad = 'beneficiary_name,phone,amount,currency,reference\nAda Dossou,0197000000,-5,XOF,bad-1\n';
      await assert.rejects(akwe.bulk.importCsv(new Blob([bad]), { name: 'Bad', country: 'BJ' }), (error: unknown) => {
        assert.ok(error instanceof InvalidRequestError, String(error));
        assert.equal(error.status, 400);
        assert.equal(error.code, 'validation_error');
        return true;
      });
      const afterwards = [];
      for await (const each of akwe.bulk.list()) afterwards.push(each.id);
      assert.deepEqual(afterwards, before);
    });
  });

  describe('settlement accounts and settlements', () => {
    it('registers a wallet, reads, lists and changes it, settles to it, reads the statement, and removes an account', async () => {
      const account = await akwe.settlementAccounts.create({ kind: 'wallet', holder_name: 'Boutique Ada', country: 'BJ', operator: 'mtn_bj', phone: '0197000001' });
      assert.equal(account.object, 'settlement_account');
      assert.equal(account.status, 'usable', 'test accounts have no cooling period');
      assert.equal((await akwe.settlementAccounts.retrieve(account.id)).phone, '+2290197000001');
      const updated = await akwe.settlementAccounts.update(account.id, { description: 'Main wallet' });
      assert.equal(updated.description, 'Main wallet');
      const accounts = [];
      for await (const each of akwe.settlementAccounts.list()) accounts.push(each.id);
      assert.ok(accounts.includes(account.id));

      const settlementReference = reference('settle');
      const settlement = await akwe.settlements.create({ settlement_account: account.id, currency: 'XOF', amount_minor: 500_000, reference: settlementReference });
      assert.equal(settlement.object, 'settlement');
      assert.equal(settlement.reference, settlementReference);
      assert.equal(settlement.amount_minor, 500_000);
      assert.equal((await akwe.settlements.retrieve(settlement.id)).id, settlement.id);
      const settlements = [];
      for await (const each of akwe.settlements.list()) settlements.push(each.id);
      assert.ok(settlements.includes(settlement.id));
      const statement = await akwe.settlements.statement(settlement.id);
      assert.equal(statement.settlement, settlement.id);
      assert.equal(statement.available_change_minor, statement.closing_available_minor - statement.opening_available_minor);
      const csv = await akwe.settlements.statementCsv(settlement.id);
      assert.ok(csv.includes(settlementReference) || csv.includes(settlement.id), csv);

      const spare = await akwe.settlementAccounts.create({ kind: 'wallet', holder_name: 'Spare', country: 'BJ', operator: 'mtn_bj', phone: '0197000002' });
      const removed = await akwe.settlementAccounts.del(spare.id);
      assert.equal(removed.status, 'removed');
    });
  });

  describe('payment links', () => {
    it('creates, reads, lists, changes and deactivates a link, and draws its QR code', async () => {
      const link = await akwe.paymentLinks.create({ amount_minor: 500_000, country: 'BJ', description: 'Wax fabric' });
      assert.equal(link.object, 'payment_link');
      assert.equal(link.amount, 5000);
      assert.equal((await akwe.paymentLinks.retrieve(link.id)).url, link.url);
      const listed = [];
      for await (const each of akwe.paymentLinks.list()) listed.push(each.id);
      assert.ok(listed.includes(link.id));
      assert.equal((await akwe.paymentLinks.update(link.id, { max_payments: 3 })).max_payments, 3);
      assert.match(await akwe.paymentLinks.qrSvg(link.id, { size: 256 }), /^<svg /);
      assert.equal((await akwe.paymentLinks.deactivate(link.id)).status, 'inactive');
    });
  });

  describe('transfers', () => {
    it('sends a transfer to another merchant, reads it and lists it; the receiver sees it received', async () => {
      const receiver = await server.testApp.newMerchant({ name: 'Receiver' });
      const transferReference = reference('transfer');
      const sent = await akwe.transfers.create({ receiver: receiver.merchantId, amount_minor: 150_000, currency: 'XOF', reference: transferReference });
      assert.equal(sent.direction, 'sent');
      assert.equal(sent.reference, transferReference);
      assert.equal((await akwe.transfers.retrieve(sent.id)).amount_minor, 150_000);
      const listed = [];
      for await (const each of akwe.transfers.list()) listed.push(each.id);
      assert.ok(listed.includes(sent.id));
      const received = await new Akwe(receiver.testKey, { baseUrl: server.baseUrl }).transfers.retrieve(sent.id);
      assert.equal(received.direction, 'received');
    });
  });

  describe('exports', () => {
    it('exports payments, payouts and balance transactions as CSV text', async () => {
      const paymentReference = reference('export');
      await akwe.payments.create({
        reference: paymentReference,
        amount: 1500,
        currency: 'XOF',
        country: 'BJ',
        mode: 'direct',
        operator: 'mtn_bj',
        customer: { phone: '+2290197000000' },
      });
      const payments = await akwe.exports.payments();
      assert.ok(payments.includes(paymentReference), payments.slice(0, 500));
      const payouts = await akwe.exports.payouts();
      assert.match(payouts.split(/\r?\n/)[0] ?? '', /reference/);
      const transactions = await akwe.exports.balanceTransactions();
      assert.ok(transactions.split(/\r?\n/).filter(Boolean).length > 1, 'the payment and the settlement moved the balance');
    });
  });
});
