/**
 * KYC and the back office on every database: a merchant submits its details and documents
 * (checked by content and size, sealed on disk), a platform administrator reviews them, and
 * every refusal (another merchant, a viewer, a non-administrator, a bad file) writes nothing.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Role } from '../../src/core/dashboard/permissions.js';
import { newId } from '../../src/core/shared/ids.js';
import { dashboardCall, mailedToken as mailedTokenIn, newOwner as newOwnerIn, PASSWORD, signIn as signInAs, uniqueEmail } from '../support/dashboard.js';
import { companyFields, jpegFile, multipart, pdfFile, pngFile, requiredDocuments, type Part } from '../support/kyc-files.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const MAX_DOCUMENT_BYTES = 64 * 1024;

for (const target of testDatabases()) {
  describe(`KYC and the back office on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-kyc-'));
      t = await buildTestApp(target, { env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000', KYC_MAX_DOCUMENT_BYTES: String(MAX_DOCUMENT_BYTES) } });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    const newOwner = () => newOwnerIn(call, dataDir);
    const submit = (owner: { access: string; merchantId: string }, parts: Part[]) => {
      const { body, contentType } = multipart(parts);
      return t.app.inject({
        method: 'POST',
        url: `/api/v1/dashboard/merchants/${owner.merchantId}/kyc`,
        headers: { authorization: `Bearer ${owner.access}`, 'content-type': contentType },
        payload: body,
      });
    };
    /** The merchant.kyc.* events an owner sees on the merchant API (their session), in one environment. */
    const kycEvents = async (owner: { access: string; merchantId: string }, environment: 'test' | 'live') => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/events?type=merchant.kyc.*',
        headers: { authorization: `Bearer ${owner.access}`, 'x-akwe-merchant': owner.merchantId, 'x-service-environment': environment },
      });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as { type: string; data: { object: { object: string; id: string; kyc_status: string; kyc_rejection_reason: string | null } } }[];
    };
    const admin = (method: 'GET' | 'POST', url: string, access: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${access}` }, ...(payload ? { payload } : {}) });
    const filesOf = (merchantId: string) => {
      const folder = join(dataDir, 'kyc', merchantId);
      return existsSync(folder) ? readdirSync(folder) : [];
    };
    const kycStatus = async (merchantId: string) => (await t.services.merchants.getMerchant(merchantId)).kycStatus;
    const newMember = async (owner: { access: string; merchantId: string }, role: Role) => {
      const email = uniqueEmail(role);
      assert.equal((await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role })).statusCode, 202);
      const accepted = await call('POST', '/auth/invitations/accept', undefined, { token: mailedTokenIn(dataDir, email, 'accept-invitation'), name: role, password: PASSWORD });
      assert.equal(accepted.statusCode, 200, accepted.body);
      return { access: await signInAs(call, email) };
    };
    /** A signed-in platform administrator, made one as `akwe admins grant` does. */
    const newAdmin = async () => {
      const person = await newOwner();
      assert.equal(await t.services.platformAdmins.grant(person.email, 'cli'), true);
      return person;
    };
    const auditActions = async (merchantId: string) => (await t.services.dashboardDevelopers.auditLog({ merchantId } as never, { limit: 100 })).data.map((e) => e.action);

    describe('submission', () => {
      it('takes the details and a PDF, a PNG and a JPEG, seals them on disk, and puts the merchant under review', async () => {
        const owner = await newOwner();
        const documents = requiredDocuments();
        // An empty file input (`other` left empty) comes as a part without a file name: ignored.
        const emptyInput: Part = { name: 'other', filename: '', contentType: 'application/octet-stream', value: '' };
        const res = await submit(owner, [...companyFields({ tax_id: '3201234567890' }), ...documents, emptyInput]);
        assert.equal(res.statusCode, 201, res.body);
        const body = res.json();
        assert.equal(body.kyc_status, 'submitted');
        assert.equal(body.submission.status, 'submitted');
        assert.equal(body.submission.legal_name, 'Boulangerie Sainte-Rita SARL');
        assert.equal(body.submission.tax_id, '3201234567890');
        assert.deepEqual(body.submission.documents.map((d: { kind: string; content_type: string }) => [d.kind, d.content_type]).sort(), [
          ['proof_of_address', 'image/jpeg'],
          ['registration_certificate', 'application/pdf'],
          ['representative_id', 'image/png'],
        ]);
        assert.equal(await kycStatus(owner.merchantId), 'submitted');

        // On disk: one file per document, named by its id, none holding the plaintext.
        const files = filesOf(owner.merchantId).sort();
        assert.deepEqual(files, body.submission.documents.map((d: { id: string }) => d.id).sort());
        for (const file of files) {
          const sealed = readFileSync(join(dataDir, 'kyc', owner.merchantId, file));
          for (const document of documents) assert.equal(sealed.includes((document.value as Buffer).subarray(0, 40)), false, 'the file on disk is not the plaintext');
          assert.equal(sealed.subarray(0, 8).toString(), 'AKWEKYC1');
        }

        const read = await call('GET', `/merchants/${owner.merchantId}/kyc`, owner.access);
        assert.equal(read.statusCode, 200);
        assert.equal(read.json().submission.id, body.submission.id);
        assert.ok((await auditActions(owner.merchantId)).includes('kyc.submitted'));

        const history = await t.services.merchants.statusHistory(owner.merchantId);
        assert.ok(history.some((c) => c.field === 'kyc_status' && c.from === 'pending' && c.to === 'submitted' && c.actor === `user:${owner.userId}`));
      });

      it('refuses a second submission while one is under review (409), writing no file', async () => {
        const owner = await newOwner();
        assert.equal((await submit(owner, [...companyFields(), ...requiredDocuments()])).statusCode, 201);
        const before = filesOf(owner.merchantId).length;
        const again = await submit(owner, [...companyFields(), ...requiredDocuments()]);
        assert.equal(again.statusCode, 409);
        assert.equal(again.json().error.code, 'kyc_under_review');
        assert.equal(filesOf(owner.merchantId).length, before);
      });

      it('of two submissions at once, one is kept and the other refused with its files removed', async () => {
        const owner = await newOwner();
        const results = await Promise.all([submit(owner, [...companyFields(), ...requiredDocuments()]), submit(owner, [...companyFields(), ...requiredDocuments()])]);
        assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 409]);
        const kept = results.find((r) => r.statusCode === 201)!.json().submission;
        assert.deepEqual(filesOf(owner.merchantId).sort(), kept.documents.map((d: { id: string }) => d.id).sort());
        const rows = await t.db.database.db.selectFrom('kyc_submissions').select('id').where('merchant_id', '=', owner.merchantId).execute();
        assert.deepEqual(
          rows.map((r) => r.id),
          [kept.id],
        );
      });

      it('reads the type from the content: an HTML page named .pdf is 415 and nothing stays on disk', async () => {
        const owner = await newOwner();
        const disguised: Part = { name: 'proof_of_address', filename: 'facture.pdf', contentType: 'application/pdf', value: Buffer.from('<html><script>alert(1)</script></html>') };
        const res = await submit(owner, [...companyFields(), ...requiredDocuments().slice(0, 2), disguised]);
        assert.equal(res.statusCode, 415, res.body);
        assert.equal(res.json().error.code, 'unsupported_document_type');
        assert.deepEqual(filesOf(owner.merchantId), []);
        assert.equal(await kycStatus(owner.merchantId), 'pending');

        const gif: Part = { name: 'representative_id', filename: 'id.png', contentType: 'image/png', value: Buffer.from('GIF89a-not-accepted-even-as-an-image') };
        const gifRes = await submit(owner, [...companyFields(), gif, ...requiredDocuments()]);
        assert.equal(gifRes.json().error.code, 'unsupported_document_type');
        assert.deepEqual(filesOf(owner.merchantId), []);
      });

      it('refuses a document over KYC_MAX_DOCUMENT_BYTES (413) and more than 6 documents (400), writing nothing', async () => {
        const owner = await newOwner();
        const big: Part = {
          name: 'registration_certificate',
          filename: 'big.pdf',
          contentType: 'application/pdf',
          value: Buffer.concat([pdfFile(), Buffer.alloc(MAX_DOCUMENT_BYTES)]),
        };
        const tooBig = await submit(owner, [...companyFields(), big, ...requiredDocuments().slice(1)]);
        assert.equal(tooBig.statusCode, 413, tooBig.body);
        assert.equal(tooBig.json().error.code, 'document_too_large');

        // Exactly the limit is accepted... by the size check (the rest is checked after).
        const others: Part[] = Array.from({ length: 4 }, (_, i) => ({ name: 'other', filename: `o${i}.jpg`, contentType: 'image/jpeg', value: jpegFile() }));
        const tooMany = await submit(owner, [...companyFields(), ...requiredDocuments(), ...others]);
        assert.equal(tooMany.statusCode, 400, tooMany.body);
        assert.equal(tooMany.json().error.code, 'too_many_documents');
        assert.deepEqual(filesOf(owner.merchantId), []);
        assert.equal(await kycStatus(owner.merchantId), 'pending');
      });

      it('refuses missing documents, a missing field, an unknown country or kind (400), writing nothing', async () => {
        const owner = await newOwner();
        const missing = await submit(owner, [...companyFields(), ...requiredDocuments().slice(0, 2)]);
        assert.equal(missing.statusCode, 400);
        assert.equal(missing.json().error.code, 'validation_error');
        assert.equal(missing.json().error.field, 'proof_of_address');

        const country = await submit(owner, [...companyFields({ country: 'FR' }), ...requiredDocuments()]);
        assert.equal(country.json().error.field, 'country');
        const noName = await submit(owner, [...companyFields({ legal_name: '  ' }), ...requiredDocuments()]);
        assert.equal(noName.json().error.field, 'legal_name');
        const kind = await submit(owner, [...companyFields(), ...requiredDocuments(), { name: 'selfie', filename: 'me.png', contentType: 'image/png', value: pngFile() }]);
        assert.equal(kind.statusCode, 400);
        assert.equal(kind.json().error.field, 'selfie');
        const json = await call('POST', `/merchants/${owner.merchantId}/kyc`, owner.access, { legal_name: 'x' });
        assert.equal(json.statusCode, 415);
        assert.deepEqual(filesOf(owner.merchantId), []);
        assert.equal(await kycStatus(owner.merchantId), 'pending');
      });

      it('refuses another merchant’s owner (404) and a viewer or developer (403) before reading any file', async () => {
        const owner = await newOwner();
        const stranger = await newOwner();
        const other = await submit({ access: stranger.access, merchantId: owner.merchantId }, [...companyFields(), ...requiredDocuments()]);
        assert.equal(other.statusCode, 404);
        assert.equal((await call('GET', `/merchants/${owner.merchantId}/kyc`, stranger.access)).statusCode, 404);
        for (const role of ['viewer', 'developer', 'finance'] as const) {
          const member = await newMember(owner, role);
          const res = await submit({ access: member.access, merchantId: owner.merchantId }, [...companyFields(), ...requiredDocuments()]);
          assert.equal(res.statusCode, 403, role);
          assert.equal(res.json().error.code, 'insufficient_role');
          assert.equal((await call('GET', `/merchants/${owner.merchantId}/kyc`, member.access)).statusCode, 200, `${role} reads the status`);
        }
        const admin = await newMember(owner, 'admin');
        assert.equal((await submit({ access: admin.access, merchantId: owner.merchantId }, [...companyFields(), ...requiredDocuments()])).statusCode, 201);
        assert.equal(filesOf(stranger.merchantId).length, 0);
        assert.equal(filesOf(owner.merchantId).length, 3);
      });
    });

    describe('back office', () => {
      it('refuses every admin route to a signed-in non-administrator (403 admin_required) and to no session (401)', async () => {
        const owner = await newOwner();
        assert.equal((await call('GET', '/me', owner.access)).json().platform_admin, false);
        for (const url of ['/kyc-submissions', '/merchants', '/discrepancies', '/operators', `/kyc-submissions/${newId()}`]) {
          const res = await admin('GET', url, owner.access);
          assert.equal(res.statusCode, 403, url);
          assert.equal(res.json().error.code, 'admin_required');
        }
        assert.equal((await admin('POST', `/merchants/${owner.merchantId}/suspend`, owner.access, { reason: 'me' })).statusCode, 403);
        assert.equal((await t.services.merchants.getMerchant(owner.merchantId)).status, 'active');
        assert.equal((await admin('GET', '/merchants', 'not-a-token')).statusCode, 401);
      });

      it('an administrator opens the documents and approves; the merchant is emailed and can create a live key', async () => {
        const owner = await newOwner();
        const boss = await newAdmin();
        assert.equal((await call('GET', '/me', boss.access)).json().platform_admin, true);
        // Before the validation a live key collects only: a money-out scope waits for it.
        const liveBefore = await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, { scopes: ['payout:write'] }, 'live');
        assert.equal(liveBefore.statusCode, 403);
        assert.equal(liveBefore.json().error.code, 'kyc_required');

        const documents = requiredDocuments();
        const submitted = (await submit(owner, [...companyFields(), ...documents])).json().submission;
        const waiting = await admin('GET', '/kyc-submissions?status=submitted&limit=100', boss.access);
        assert.equal(waiting.statusCode, 200);
        assert.ok(waiting.json().data.some((s: { id: string }) => s.id === submitted.id));
        assert.equal((await admin('GET', `/kyc-submissions/${submitted.id}`, boss.access)).json().merchant_id, owner.merchantId);

        const certificate = submitted.documents.find((d: { kind: string }) => d.kind === 'registration_certificate');
        const file = await admin('GET', `/kyc-submissions/${submitted.id}/documents/${certificate.id}`, boss.access);
        assert.equal(file.statusCode, 200);
        assert.deepEqual(file.rawPayload, documents[0]!.value);
        assert.equal(file.headers['content-type'], 'application/pdf');
        assert.match(String(file.headers['content-disposition']), /^attachment; filename="registration_certificate-[0-9a-f-]+\.pdf"$/);
        assert.equal(file.headers['x-content-type-options'], 'nosniff');
        assert.equal(file.headers['content-security-policy'], "sandbox; default-src 'none'");
        assert.equal((await admin('GET', `/kyc-submissions/${submitted.id}/documents/${newId()}`, boss.access)).statusCode, 404);

        const approved = await admin('POST', `/kyc-submissions/${submitted.id}/approve`, boss.access);
        assert.equal(approved.statusCode, 200, approved.body);
        assert.equal(approved.json().status, 'validated');
        assert.equal(approved.json().reviewed_by, boss.userId);
        assert.equal(await kycStatus(owner.merchantId), 'validated');
        const again = await admin('POST', `/kyc-submissions/${submitted.id}/approve`, boss.access);
        assert.equal(again.statusCode, 409);
        assert.equal(again.json().error.code, 'kyc_not_under_review');
        // The decision is an event in each environment, once (the refused second approval adds none).
        for (const environment of ['test', 'live'] as const) {
          const events = await kycEvents(owner, environment);
          assert.deepEqual(
            events.map((e) => [e.type, e.data.object.object, e.data.object.id, e.data.object.kyc_status, e.data.object.kyc_rejection_reason]),
            [['merchant.kyc.validated', 'merchant', owner.merchantId, 'validated', null]],
            environment,
          );
        }

        const live = await call('POST', `/merchants/${owner.merchantId}/keys`, owner.access, { scopes: ['payout:write'] }, 'live');
        assert.equal(live.statusCode, 201, live.body);
        assert.match(live.json().secret, /^ak_live_/);
        assert.equal((await call('GET', `/merchants/${owner.merchantId}/kyc`, owner.access)).json().kyc_status, 'validated');
        const resubmit = await submit(owner, [...companyFields(), ...requiredDocuments()]);
        assert.equal(resubmit.json().error.code, 'kyc_already_validated');

        const mails = readdirSync(join(dataDir, 'mailbox')).map((name) => readFileSync(join(dataDir, 'mailbox', name), 'utf8'));
        assert.ok(mails.some((mail) => mail.includes(`To: ${owner.email.toLowerCase()}`) && mail.includes('KYC is validated')));
        const actions = await auditActions(owner.merchantId);
        assert.ok(actions.includes('admin.kyc_document_downloaded'));
        assert.ok(actions.includes('kyc.validated'));
      });

      it('a rejection carries its reason to the merchant, by the API and by email (in the owner’s language), and the merchant may submit again', async () => {
        const owner = await newOwner();
        const boss = await newAdmin();
        const french = await t.app.inject({
          method: 'PUT',
          url: '/api/v1/dashboard/me/language',
          headers: { authorization: `Bearer ${owner.access}` },
          payload: { language: 'fr' },
        });
        assert.equal(french.statusCode, 204, french.body);
        const submitted = (await submit(owner, [...companyFields(), ...requiredDocuments()])).json().submission;
        const empty = await admin('POST', `/kyc-submissions/${submitted.id}/reject`, boss.access, { reason: '   ' });
        assert.equal(empty.statusCode, 400);
        const reason = 'La preuve d’adresse date de plus de trois mois.';
        const rejected = await admin('POST', `/kyc-submissions/${submitted.id}/reject`, boss.access, { reason });
        assert.equal(rejected.statusCode, 200, rejected.body);
        const seen = (await call('GET', `/merchants/${owner.merchantId}/kyc`, owner.access)).json();
        assert.equal(seen.kyc_status, 'rejected');
        assert.equal(seen.submission.rejection_reason, reason);
        const mails = readdirSync(join(dataDir, 'mailbox')).map((name) => readFileSync(join(dataDir, 'mailbox', name), 'utf8'));
        assert.ok(mails.some((mail) => mail.includes(`To: ${owner.email.toLowerCase()}`) && mail.includes('trois mois') && mail.includes('votre dossier KYC a été refusé')));
        assert.ok((await auditActions(owner.merchantId)).includes('kyc.rejected'));
        const [event] = await kycEvents(owner, 'live');
        assert.equal(event?.type, 'merchant.kyc.rejected');
        assert.equal(event?.data.object.kyc_rejection_reason, reason);

        const again = await submit(owner, [...companyFields(), ...requiredDocuments()]);
        assert.equal(again.statusCode, 201, again.body);
        assert.equal(again.json().kyc_status, 'submitted');
        assert.equal(
          (await admin('GET', '/kyc-submissions?status=rejected&limit=100', boss.access)).json().data.some((s: { id: string }) => s.id === submitted.id),
          true,
        );
      });

      it('suspends a merchant (its live key is refused with account_inactive) and reactivates it, each with a reason in the audit log', async () => {
        const boss = await newAdmin();
        const merchant = await t.newMerchant({ name: 'To suspend' });
        const batch = () =>
          t.app.inject({
            method: 'POST',
            url: '/api/v1/bulk-payments/',
            headers: { authorization: `Bearer ${merchant.liveKey}`, 'idempotency-key': newId() },
            payload: {
              name: 'Salaires',
              items: [{ beneficiary_name: 'Afi', phone: '0197000000', amount: 2_500_000, currency: 'XOF', reference: `L-${newId()}`, country: 'BJ', operator: 'mtn_bj' }],
            },
          });
        assert.equal((await batch()).statusCode, 201);
        assert.equal((await admin('POST', `/merchants/${merchant.merchantId}/suspend`, boss.access, {})).statusCode, 400, 'a reason is required');
        const suspended = await admin('POST', `/merchants/${merchant.merchantId}/suspend`, boss.access, { reason: 'Fraud review' });
        assert.equal(suspended.statusCode, 200, suspended.body);
        assert.equal(suspended.json().status, 'suspended');
        const refused = await batch();
        assert.equal(refused.statusCode, 403);
        assert.equal(refused.json().error.code, 'account_inactive');
        const listed = (await admin('GET', '/merchants?status=suspended', boss.access)).json().data;
        assert.ok(listed.some((m: { id: string }) => m.id === merchant.merchantId));

        assert.equal((await admin('POST', `/merchants/${merchant.merchantId}/reactivate`, boss.access, { reason: 'Cleared' })).json().status, 'active');
        assert.equal((await batch()).statusCode, 201);
        const history = await t.services.merchants.statusHistory(merchant.merchantId);
        assert.ok(history.some((c) => c.field === 'status' && c.to === 'suspended' && c.actor === `admin:${boss.userId}`));
        const audit = (await t.services.dashboardDevelopers.auditLog({ merchantId: merchant.merchantId } as never, { limit: 100 })).data;
        assert.deepEqual(
          audit.map((e) => [e.action, e.target]),
          [
            ['admin.merchant_reactivated', 'Cleared'],
            ['admin.merchant_suspended', 'Fraud review'],
          ],
        );
        assert.equal((await admin('POST', `/merchants/${newId()}/suspend`, boss.access, { reason: 'x' })).statusCode, 404);
      });

      it('lists discrepancies and the operators that are failing', async () => {
        const boss = await newAdmin();
        const merchant = await t.newMerchant();
        await t.services.discrepancies.record({
          id: newId(),
          kind: 'operator_answer',
          merchantId: merchant.merchantId,
          environment: 'live',
          resourceType: 'payment',
          resourceId: newId(),
          reference: 'order-1042',
          operator: 'mtn_bj',
          ourStatus: 'expired',
          operatorStatus: 'SUCCESSFUL',
          operatorReference: null,
          message: null,
          createdAt: new Date().toISOString(),
          resolvedAt: null,
          resolution: null,
          route: null,
          currency: null,
          ourAmountMinor: null,
          operatorAmountMinor: null,
          reconciliationRunId: null,
        });
        const discrepancies = await admin('GET', '/discrepancies', boss.access);
        assert.equal(discrepancies.statusCode, 200);
        assert.ok(discrepancies.json().data.some((d: { merchant_id: string; reference: string }) => d.merchant_id === merchant.merchantId && d.reference === 'order-1042'));

        const all = (await admin('GET', '/operators', boss.access)).json().data as Array<{ environment: string; health: string }>;
        assert.ok(all.some((o) => o.environment === 'test' && o.health === 'available'));
        const failing = (await admin('GET', '/operators?failing=true', boss.access)).json().data as Array<{ environment: string; health: string }>;
        // No live connector is configured in tests: every live operator is unavailable, no test one.
        assert.ok(failing.length > 0);
        assert.ok(failing.every((o) => o.environment === 'live' && o.health !== 'available'));
      });

      it('a revoked administrator is refused at the next request', async () => {
        const boss = await newAdmin();
        assert.equal((await admin('GET', '/merchants', boss.access)).statusCode, 200);
        assert.equal(await t.services.platformAdmins.revoke(boss.email, 'cli'), true);
        assert.equal((await admin('GET', '/merchants', boss.access)).statusCode, 403);
        assert.equal(await t.services.platformAdmins.revoke(boss.email, 'cli'), false);
      });
    });
  });
}
