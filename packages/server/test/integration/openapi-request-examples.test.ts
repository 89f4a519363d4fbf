/**
 * Every request example of the served OpenAPI document is accepted by the server: each one is sent,
 * as the document shows it, to a fresh app (after creating what it names: a payment for a refund,
 * a settlement account for a settlement, another merchant for a transfer…), and the answer's status
 * must be a documented 2xx one, its JSON body valid against the documented schema. Both collect
 * contracts (2026-06 and the earlier one) are in the one document, so both are covered. Where an
 * example holds what only a person could have (a mailed link's token, an authenticator's code, a
 * file's bytes, the id of an object this app does not have), the test puts the real one in its place.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { totpCode } from '../../src/core/dashboard/totp.js';
import { systemClock } from '../../src/core/shared/clock.js';
import { newId } from '../../src/core/shared/ids.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { SandboxOperator } from '../../src/operators/sandbox/sandbox-operator.js';
import { LedgerRepository } from '../../src/storage/repositories/ledger-repository.js';
import { dashboardCall, mailedToken, newOwner, PASSWORD, signIn, uniqueEmail } from '../support/dashboard.js';
import { companyFields, jpegFile, multipart, pdfFile, pngFile, requiredDocuments, type Part } from '../support/kyc-files.js';
import { documentValidator, mediaExamples } from '../support/openapi-examples.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** The bytes a multipart example's file field stands for: the example's own text, or a document of the type the field takes. */
function fileFor(name: string, value: unknown): Part {
  if (name === 'file') return { name, filename: 'salaries.csv', contentType: 'text/csv', value: String(value) };
  if (name === 'representative_id') return { name, filename: 'id.png', contentType: 'image/png', value: pngFile() };
  if (name === 'proof_of_address') return { name, filename: 'bill.jpg', contentType: 'image/jpeg', value: jpegFile() };
  return { name, filename: `${name}.pdf`, contentType: 'application/pdf', value: pdfFile(name) };
}

/** A multipart/form-data example as a browser would send it: its `format: binary` fields as files. */
function multipartOf(example: Json, schema: Json): { body: Buffer; contentType: string } {
  const properties = (schema.properties ?? {}) as Json;
  return multipart(Object.entries(example).map(([name, value]) => (properties[name]?.format === 'binary' ? fileFor(name, value) : { name, value: String(value) })));
}

/** Who sends an example: the merchant's API key, the owner's dashboard session, a platform administrator's, nobody. */
type Auth = 'key' | 'dashboard' | 'admin' | 'none';

for (const target of testDatabases()) {
  describe(`OpenAPI request examples (${target.name})`, { skip: target.skip }, () => {
    let t: TestApp;
    let document: Json;
    let key: string;
    let otherMerchantId: string;
    let owner: Awaited<ReturnType<typeof newOwner>>;
    let adminAccess: string;
    let dataDir: string;
    const call = dashboardCall(() => t);

    const api = (method: string, url: string, payload?: object) =>
      t.app.inject({
        method: method as 'GET',
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${key}`, ...(method === 'GET' ? {} : { 'idempotency-key': crypto.randomUUID() }) },
        ...(payload ? { payload } : {}),
      });

    async function created(method: string, url: string, payload?: object): Promise<Json> {
      const res = await api(method, url, payload);
      assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    }

    /** A direct test payment of 50 FCFA on `operator`, its reference starting with `prefix`. */
    const directPayment = (prefix: string, country: string, phone: string, operator: string): Promise<Json> =>
      created('POST', '/collect/payments', {
        reference: `${prefix}-${crypto.randomUUID()}`,
        amount: 5000,
        currency: 'XOF',
        country,
        mode: 'direct',
        customer: { phone },
        operator,
      });

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-examples-'));
      // The sandbox answers live MTN Benin too: the live payout held for approval names a connector that exists.
      const sandbox = new SandboxOperator();
      t = await buildTestApp(target, {
        env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' },
        operators: new OperatorRegistry({ test: sandbox, live: new Map([['MTN_BJ', sandbox]]) }),
      });
      document = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
      ({ testKey: key } = await t.newMerchant());
      ({ merchantId: otherMerchantId } = await t.newMerchant({ name: 'Receiver' }));
      owner = await newOwner(call, t.config.dataDir);
      await t.services.platformAdmins.grant(owner.email, 'test');
      adminAccess = await signIn(call, owner.email);
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** Path values, replaced ids and the session each example needs, made before it is sent. */
    async function prepare(operationId: string, path: string, example: unknown): Promise<{ path: string; body: unknown; auth: Auth; token?: string; environment?: 'live' }> {
      const body = structuredClone(example) as Json;
      const fill = (values: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
      const onMerchant = (values: Record<string, string> = {}) => fill({ merchantId: owner.merchantId, ...values });
      switch (operationId) {
        case 'createPayment':
        case 'legacyCreatePayment':
        case 'createBulkPayment':
        case 'createSettlementAccount':
        case 'createWebhookEndpoint':
        case 'predictOperator':
          return { path, body, auth: 'key' };
        case 'confirmPayment': {
          const payment = await directPayment('otp', 'CI', '0707000000', 'orange_ci');
          return { path: fill({ reference_or_id: payment.id }), body, auth: 'key' };
        }
        case 'cancelPayment': {
          const payment = await directPayment('PENDING', 'BJ', '0197000000', 'mtn_bj');
          return { path: fill({ reference_or_id: payment.id }), body, auth: 'key' };
        }
        case 'simulateCheckoutPayment': {
          const payment = await created('POST', '/collect/payments', { reference: `hosted-${crypto.randomUUID()}`, amount: 5000, currency: 'XOF', country: 'BJ', mode: 'hosted' });
          return { path: fill({ reference_or_id: payment.id }), body, auth: 'key' };
        }
        case 'createPaymentRefund': {
          const payment = await directPayment('refund', 'BJ', '0197000000', 'mtn_bj');
          return { path: fill({ reference_or_id: payment.id }), body, auth: 'key' };
        }
        case 'legacyConfirmPayment': {
          // The example confirms the payment the earlier contract's create example made: made here with an OTP operator.
          await created('POST', '/collect/mobile-money/', { amount: 500000, phone: '0707000000', country: 'CI', operator: 'orange_ci', reference: body.reference });
          return { path, body, auth: 'key' };
        }
        // Money-out submitted through the dashboard: on the owner's merchant (KYC validated, its own
        // test key), where a test submission is executed at once (only live ones wait for a second person).
        case 'dashboardSubmitPayout':
          await readyForMoneyOut();
          return { path: onMerchant(), body, auth: 'dashboard' };
        case 'dashboardSubmitBatch': {
          await readyForMoneyOut();
          const batch = await createdFor(ownerKey, 'POST', '/bulk-payments/', {
            name: 'Examples',
            country: 'TG',
            items: [{ beneficiary_name: 'Kossi Agbeko', phone: '90112233', amount: 2500000, currency: 'XOF', reference: `line-${crypto.randomUUID()}` }],
          });
          body.batch_id = batch.id;
          return { path: onMerchant(), body, auth: 'dashboard' };
        }
        case 'dashboardSubmitTransfer':
          await readyForMoneyOut();
          body.receiver = otherMerchantId;
          return { path: onMerchant(), body, auth: 'dashboard' };
        case 'dashboardSubmitSettlement': {
          await readyForMoneyOut();
          const account = await createdFor(ownerKey, 'POST', '/settlement-accounts/', {
            kind: 'wallet',
            country: 'BJ',
            operator: 'mtn_bj',
            phone: '0197000001',
            holder_name: 'Examples',
          });
          body.settlement_account = account.id;
          return { path: onMerchant(), body, auth: 'dashboard' };
        }
        case 'dashboardSubmitRefund':
          await readyForMoneyOut();
          // The payment the example names, made first on the owner's merchant.
          await createdFor(ownerKey, 'POST', '/collect/payments', {
            reference: body.payment,
            amount: 5000,
            currency: 'XOF',
            country: 'BJ',
            mode: 'direct',
            customer: { phone: '0197000000' },
            operator: 'mtn_bj',
          });
          return { path: onMerchant(), body, auth: 'dashboard' };
        case 'validateBulkPayment':
        case 'cancelBulkPayment': {
          const batch = await created('POST', '/bulk-payments/', {
            name: 'Examples',
            country: 'TG',
            items: [{ beneficiary_name: 'Kossi Agbeko', phone: '90112233', amount: 2500000, currency: 'XOF', reference: `line-${crypto.randomUUID()}` }],
          });
          return { path: fill({ id: batch.id }), body, auth: 'key' };
        }
        case 'updatePaymentLink': {
          const link = await created('POST', '/payment-links', { amount_minor: 500_000, country: 'BJ', description: 'Examples' });
          return { path: fill({ id: link.id }), body, auth: 'key' };
        }
        case 'createTransfer':
          body.receiver = otherMerchantId;
          return { path, body, auth: 'key' };
        case 'createSettlement':
        case 'putSettlementSchedule': {
          const account = await created('POST', '/settlement-accounts/', { kind: 'wallet', country: 'BJ', operator: 'mtn_bj', phone: '0197000001', holder_name: 'Examples' });
          body.settlement_account = account.id;
          return { path: fill({ currency: 'XOF' }), body, auth: 'key' };
        }
        case 'updateSettlementAccount': {
          const account = await created('POST', '/settlement-accounts/', { kind: 'wallet', country: 'BJ', operator: 'mtn_bj', phone: '0197000001', holder_name: 'Examples' });
          return { path: fill({ id: account.id }), body, auth: 'key' };
        }
        case 'updateWebhookEndpoint':
        case 'rotateWebhookEndpointSecret': {
          const endpoint = await created('POST', '/webhook-endpoints', { url: 'https://shop.example.com/akwe/webhooks', events: ['collect.payment.*'] });
          return { path: fill({ id: endpoint.id }), body, auth: 'key' };
        }
        case 'resendEvent': {
          const events = await created('GET', '/events?limit=1');
          return { path: fill({ id: events.data[0].id }), body, auth: 'key' };
        }
        // The dashboard, as the owner of a merchant of their own.
        case 'dashboardSignUp':
          body.email = uniqueEmail('example');
          return { path, body, auth: 'none' };
        case 'dashboardSignIn':
          body.email = owner.email;
          body.password = PASSWORD;
          return { path, body, auth: 'none' };
        case 'dashboardPasswordResetRequest':
          return { path, body, auth: 'none' };
        // The codes an authenticator app would show, for a user of their own (a code works once: the next step's after confirming).
        case 'dashboardSignInTotp': {
          const user = await totpUser(true);
          const first = await call('POST', '/auth/sign-in', undefined, { email: user.email, password: PASSWORD });
          assert.equal(first.json().totp_required, true, first.body);
          body.challenge_token = first.json().challenge_token;
          body.code = totpCode(user.secret, new Date(Date.now() + 30_000));
          return { path, body, auth: 'none' };
        }
        case 'dashboardTotpConfirm': {
          const user = await totpUser(false);
          body.code = totpCode(user.secret, new Date());
          return { path, body, auth: 'none', token: user.access };
        }
        case 'dashboardTotpDisable': {
          const user = await totpUser(true);
          body.code = totpCode(user.secret, new Date(Date.now() + 30_000));
          return { path, body, auth: 'none', token: user.access };
        }
        // A mailed link's token in place of the example's: from a sign-up, a reset request, an invitation.
        case 'dashboardVerifyEmail': {
          const email = uniqueEmail('unverified');
          const signedUp = await call('POST', '/auth/sign-up', undefined, { email, password: PASSWORD, name: 'Unverified', merchant_name: 'Shop' });
          assert.equal(signedUp.statusCode, 202, signedUp.body);
          body.token = mailedToken(dataDir, email, 'verify-email');
          return { path, body, auth: 'none' };
        }
        case 'dashboardPasswordResetComplete': {
          const { email } = await newOwner(call, dataDir);
          const requested = await call('POST', '/auth/password-reset', undefined, { email });
          assert.equal(requested.statusCode, 202, requested.body);
          body.token = mailedToken(dataDir, email, 'password-reset');
          return { path, body, auth: 'none' };
        }
        case 'dashboardAcceptInvitation': {
          // The first example makes an account (name and password), the second adds a membership to an existing one.
          const email = body.name === undefined ? (await newOwner(call, dataDir)).email : uniqueEmail('invited');
          const invited = await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role: 'developer' });
          assert.equal(invited.statusCode, 202, invited.body);
          body.token = mailedToken(dataDir, email, 'accept-invitation');
          return { path, body, auth: 'none' };
        }
        case 'dashboardInvite':
          body.email = uniqueEmail('invited');
          return { path: onMerchant(), body, auth: 'dashboard' };
        case 'dashboardChangeRole': {
          const member = await invitedMember('finance');
          return { path: onMerchant({ userId: member.userId }), body, auth: 'dashboard' };
        }
        case 'dashboardSetLanguage':
        case 'dashboardCreateApiKey':
        case 'dashboardSetApprovalPolicy':
          return { path: onMerchant(), body, auth: 'dashboard' };
        case 'dashboardCreateWebhookEndpoint':
          return { path: onMerchant(), body, auth: 'dashboard' };
        case 'dashboardUpdateWebhookEndpoint':
        case 'dashboardRotateWebhookEndpointSecret':
        case 'dashboardSendTestEvent': {
          const endpoint = await call('POST', `/merchants/${owner.merchantId}/webhook-endpoints`, owner.access, {
            url: 'https://shop.example.com/akwe/webhooks',
            events: ['collect.payment.*'],
          });
          assert.equal(endpoint.statusCode, 201, endpoint.body);
          return { path: onMerchant({ id: endpoint.json().id }), body, auth: 'dashboard' };
        }
        case 'dashboardResendEvent': {
          const endpoint = await call('POST', `/merchants/${owner.merchantId}/webhook-endpoints`, owner.access, { url: 'https://shop.example.com/akwe/webhooks', events: ['*'] });
          assert.equal(endpoint.statusCode, 201, endpoint.body);
          const sent = await call('POST', `/merchants/${owner.merchantId}/webhook-endpoints/${endpoint.json().id}/test-event`, owner.access, { type: 'collect.payment.completed' });
          assert.equal(sent.statusCode, 202, sent.body);
          body.endpoint_id = endpoint.json().id;
          return { path: onMerchant({ eventId: sent.json().event_id ?? sent.json().id }), body, auth: 'dashboard' };
        }
        case 'dashboardRejectApproval': {
          // A live payout above the policy's threshold waits for a second person, who rejects it.
          await readyForMoneyOut();
          await new LedgerRepository(t.db.database.db, newId, systemClock, 0).post(t.db.database.db, [
            {
              merchantId: owner.merchantId,
              environment: 'live',
              currency: 'XOF',
              type: 'collection',
              source: { type: 'payment', id: newId(), reference: 'SEED' },
              description: 'seeded for the example',
              lines: [
                { kind: 'operator_clearing', amountMinor: -100_000_000 },
                { kind: 'available', amountMinor: 100_000_000 },
              ],
            },
          ]);
          const live = { authorization: `Bearer ${owner.access}`, 'x-service-environment': 'live' };
          const base = `/api/v1/dashboard/merchants/${owner.merchantId}`;
          const policy = await t.app.inject({
            method: 'PUT',
            url: `${base}/approval-policy`,
            headers: live,
            payload: { thresholds: [{ currency: 'XOF', amount_minor: 100_000 }] },
          });
          assert.equal(policy.statusCode, 200, policy.body);
          const held = await t.app.inject({
            method: 'POST',
            url: `${base}/approvals/payouts`,
            headers: live,
            payload: { amount: 2_500_000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: `held-${newId()}` },
          });
          assert.equal(held.statusCode, 201, held.body);
          const checker = await signIn(call, (await invitedMember('admin')).email);
          return { path: onMerchant({ approvalId: held.json().id }), body, auth: 'none', token: checker, environment: 'live' };
        }
        // KYC: a merchant of its own submits (the owner's is validated by then); the back office rejects one submitted.
        case 'dashboardSubmitKyc': {
          const submitter = await newOwner(call, dataDir);
          return { path: fill({ merchantId: submitter.merchantId }), body, auth: 'none', token: submitter.access };
        }
        case 'adminRejectKycSubmission':
          return { path: fill({ submissionId: await kycSubmission() }), body, auth: 'admin' };
        case 'adminImportReconciliationReport':
          return { path, body, auth: 'admin' };
        case 'adminSuspendMerchant':
        case 'adminReactivateMerchant':
          // The document shows suspend first: reactivate finds the merchant suspended.
          return { path: fill({ merchantId: otherMerchantId }), body, auth: 'admin' };
        default:
          return { path, body, auth: 'key' };
      }
    }

    let ownerKey: string | undefined;
    /** The owner's merchant made ready for money-out once: KYC validated, a test key of its own. */
    async function readyForMoneyOut() {
      if (ownerKey !== undefined) return;
      await t.services.merchants.updateMerchant(owner.merchantId, { kycStatus: 'validated' });
      ownerKey = (await t.services.merchants.createKey({ merchantId: owner.merchantId, environment: 'test' })).secret;
    }

    async function createdFor(apiKey: string | undefined, method: string, url: string, payload: object): Promise<Json> {
      const res = await t.app.inject({
        method: method as 'POST',
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': crypto.randomUUID() },
        payload,
      });
      assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    }

    /** A user of their own who started TOTP enrolment (and confirmed it with the current code). */
    async function totpUser(confirmed: boolean): Promise<{ email: string; access: string; secret: string }> {
      const user = await newOwner(call, dataDir);
      const enrolled = await call('POST', '/me/totp', user.access);
      assert.equal(enrolled.statusCode, 200, enrolled.body);
      const secret = enrolled.json().secret as string;
      if (confirmed) assert.equal((await call('POST', '/me/totp/confirm', user.access, { code: totpCode(secret, new Date()) })).statusCode, 204);
      return { email: user.email, access: user.access, secret };
    }

    /** A KYC submission of a new merchant's, waiting for review: its id. */
    async function kycSubmission(): Promise<string> {
      const submitter = await newOwner(call, dataDir);
      const form = multipart([...companyFields(), ...requiredDocuments()]);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/dashboard/merchants/${submitter.merchantId}/kyc`,
        headers: { authorization: `Bearer ${submitter.access}`, 'content-type': form.contentType },
        payload: form.body,
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().submission.id as string;
    }

    /** A second member of the owner's merchant (an accepted invitation), by user id. */
    async function invitedMember(role: string): Promise<{ userId: string; email: string }> {
      const email = uniqueEmail('member');
      const invited = await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role });
      assert.equal(invited.statusCode, 202, invited.body);
      const accepted = await call('POST', '/auth/invitations/accept', undefined, {
        token: mailedToken(t.config.dataDir, email, 'accept-invitation'),
        name: 'Member',
        password: PASSWORD,
      });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const members = await call('GET', `/merchants/${owner.merchantId}/members`, owner.access);
      return { userId: members.json().data.find((member: Json) => member.email === email).user_id as string, email };
    }

    it('accepts every request example, answering a documented status with a body its schema allows', async () => {
      const validate = documentValidator(document);
      const problems: string[] = [];
      const sent: string[] = [];
      let examples = 0;
      for (const [path, item] of Object.entries(document.paths as Json)) {
        for (const method of METHODS) {
          const operation = (item as Json)[method] as Json | undefined;
          const content = operation?.requestBody?.content as Json | undefined;
          if (!operation || !content) continue;
          const operationId = operation.operationId as string;
          for (const [type, media] of Object.entries(content)) {
            for (const example of mediaExamples(media as Json)) {
              examples += 1;
              const where = `${method.toUpperCase()} ${path} (${operationId}, ${type})`;
              const prepared = await prepare(operationId, path, example);
              const token = prepared.token ?? { key, dashboard: owner.access, admin: adminAccess, none: undefined }[prepared.auth];
              const form = type === 'multipart/form-data' ? multipartOf(prepared.body as Json, (media as Json).schema as Json) : undefined;
              const res = await t.app.inject({
                method: method.toUpperCase() as 'POST',
                url: prepared.path,
                headers: {
                  'content-type': form?.contentType ?? type,
                  ...(prepared.environment ? { 'x-service-environment': prepared.environment } : {}),
                  ...(token ? { authorization: `Bearer ${token}` } : {}),
                  ...((operation.parameters ?? []).some((p: Json) => p.name === 'Idempotency-Key') ? { 'idempotency-key': crypto.randomUUID() } : {}),
                },
                payload: form?.body ?? (typeof prepared.body === 'string' ? prepared.body : JSON.stringify(prepared.body)),
              });
              sent.push(operationId);
              const status = String(res.statusCode);
              if (res.statusCode >= 300 || !(status in operation.responses)) {
                problems.push(`${where}: ${res.statusCode} ${res.body.slice(0, 300)}`);
                continue;
              }
              const responseMedia = operation.responses[status].content?.['application/json'];
              if (responseMedia && res.headers['content-type']?.toString().startsWith('application/json')) {
                const pointer = `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json/schema`;
                problems.push(...validate(pointer, res.json()).map((problem) => `${where} answer: ${problem}`));
              }
            }
          }
        }
      }
      assert.deepEqual(problems, []);
      assert.ok(sent.includes('createPayment') && sent.includes('legacyCreatePayment') && sent.includes('legacyConfirmPayment'), 'both collect contracts are sent');
      assert.equal(sent.length, examples, 'every request example was sent');
      assert.ok(examples >= 50, `${examples} request examples in the document`);
    });
  });
}
