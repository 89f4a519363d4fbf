/**
 * The checked-in Bruno collection (examples/bruno/) is what the served OpenAPI document generates
 * today, file for file, and Bruno's own parser (@usebruno/lang) reads every file as we mean it: an
 * API change without `npm run generate-bruno -w @akwe/sdk` fails here, and so does a generator
 * change that writes something Bruno would misread.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
// @ts-expect-error @usebruno/lang ships no type declarations
import { bruToEnvJsonV2, bruToJsonV2, collectionBruToJson } from '@usebruno/lang';
// @ts-expect-error the generator is a plain .mjs script without type declarations
import { BRUNO_COLLECTION_DIR, filesUnder, folderName, generateBrunoCollection } from '../scripts/generate-bruno.mjs';
// @ts-expect-error the generator is a plain .mjs script without type declarations
import { fetchServedDocument } from '../scripts/generate-types.mjs';
// @ts-expect-error the tour is a plain .mjs script without type declarations
import { TOUR } from '../scripts/collection-tour.mjs';

interface ParsedRequest {
  meta: { name: string; type: string };
  http: { method: string; url: string; body: string; auth: string };
  params?: { name: string; value: string; enabled: boolean; type: 'query' | 'path' }[];
  headers?: { name: string; value: string; enabled: boolean }[];
  auth?: { bearer?: { token: string } };
  body?: { json?: string; text?: string };
  docs?: string;
  tests?: string;
  script?: { res?: string };
}

interface Operation {
  operationId: string;
  summary?: string;
  tags?: string[];
  requestBody?: { content: Record<string, { example?: unknown }> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('the Bruno collection', () => {
  it('matches the document the server serves, file for file', async () => {
    const document = await fetchServedDocument();
    const expected: Map<string, string> = await generateBrunoCollection(document);
    const checkedIn: string[] = filesUnder(BRUNO_COLLECTION_DIR);
    assert.deepEqual(checkedIn, [...expected.keys()].sort(), 'examples/bruno/ has other files than the API generates; run npm run generate-bruno -w @akwe/sdk');
    const stale = checkedIn.filter((name) => readFileSync(join(BRUNO_COLLECTION_DIR, name), 'utf8') !== expected.get(name));
    assert.deepEqual(stale, [], 'these files of examples/bruno/ are out of date; run npm run generate-bruno -w @akwe/sdk');
  });

  it('is read by Bruno as the tour (in order, each testing its status) and every other operation in a folder per tag, with auth, body and Idempotency-Key', async () => {
    const document = (await fetchServedDocument()) as { paths: Record<string, Record<string, Operation>> };
    const read = (name: string) => readFileSync(join(BRUNO_COLLECTION_DIR, name), 'utf8');

    const collection = JSON.parse(read('bruno.json'));
    assert.equal(collection.type, 'collection');
    assert.deepEqual(collectionBruToJson(read('collection.bru')).auth, { mode: 'bearer', bearer: { token: '{{apiKey}}' } });
    const environment = bruToEnvJsonV2(read('environments/Local.bru')) as { variables: { name: string; secret: boolean }[] };
    assert.deepEqual(
      environment.variables.map((variable) => [variable.name, variable.secret]),
      [
        ['baseUrl', false],
        ['apiKey', true],
        ['dashboardEmail', true],
        ['dashboardPassword', true],
        ['dashboardToken', true],
      ],
    );

    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method] !== undefined).map((method) => ({ path, method, operation: item[method]! })),
    );
    const toured = new Set((TOUR as { op: string }[]).map((step) => step.op));
    const tourFiles = filesUnder(BRUNO_COLLECTION_DIR).filter((name: string) => name.startsWith('tour/') && name !== 'tour/folder.bru');
    assert.equal(tourFiles.length, TOUR.length);
    for (const [index, step] of (TOUR as { expect: number }[]).entries()) {
      const request = bruToJsonV2(read(tourFiles[index]!)) as ParsedRequest & { seq: number };
      assert.match(request.tests ?? '', new RegExp(`expect\\(res\\.getStatus\\(\\)\\)\\.to\\.equal\\(${step.expect}\\)`), tourFiles[index]);
    }
    const skippedFiles = filesUnder(BRUNO_COLLECTION_DIR).filter((name: string) => name.startsWith('not-in-the-run/') && !name.endsWith('/folder.bru'));
    assert.equal(skippedFiles.length, operations.length - toured.size, 'every operation is in the tour or in the skipped folder');

    for (const { path, method, operation } of operations.filter(({ operation }) => !toured.has(operation.operationId))) {
      const folder = `not-in-the-run/${folderName(operation.tags?.[0] ?? 'other')}`;
      assert.equal((collectionBruToJson(read(`${folder}/folder.bru`)) as { meta: { name: string } }).meta.name, operation.tags?.[0]);
      const request = bruToJsonV2(read(`${folder}/${operation.operationId}.bru`)) as ParsedRequest;
      assert.equal(request.http.method, method, operation.operationId);
      assert.equal(request.http.url, `{{baseUrl}}${path.replace(/\{([^}]+)\}/g, ':$1')}`, operation.operationId);
      assert.equal(request.meta.name, operation.summary ?? operation.operationId);
      const json = operation.requestBody?.content['application/json'];
      if (json?.example !== undefined) {
        assert.equal(request.http.body, 'json', operation.operationId);
        assert.deepEqual(JSON.parse(request.body?.json ?? ''), json.example, operation.operationId);
      }
    }

    const create = bruToJsonV2(read('tour/007-createPayment.bru')) as ParsedRequest;
    assert.equal(create.http.auth, 'inherit');
    assert.match(create.script?.res ?? '', /bru\.setVar\('paymentId', body\.id\);/);
    assert.ok(create.headers?.some((header) => header.name === 'Idempotency-Key' && header.value === '{{$guid}}' && header.enabled));
    const retrieve = bruToJsonV2(read('tour/009-getPayment.bru')) as ParsedRequest;
    assert.deepEqual(
      retrieve.params?.filter((param) => param.type === 'path').map((param) => [param.name, param.value]),
      [['reference_or_id', '{{paymentId}}']],
    );
    assert.ok(
      retrieve.params?.filter((param) => param.type === 'query').every((param) => !param.enabled),
      'query parameters are off until ticked',
    );
    const csv = bruToJsonV2(read(tourFiles.find((name: string) => name.endsWith('-importBulkPaymentCsv.bru'))!)) as ParsedRequest;
    assert.equal(csv.http.body, 'text');
    assert.ok(csv.headers?.some((header) => header.name === 'Content-Type' && header.value === 'text/csv'));
    assert.match(csv.body?.text ?? '', /beneficiary_name/);
    const publicRoute = operations.find(({ operation }) => (operation as { security?: unknown[] }).security?.length === 0 && !toured.has(operation.operationId));
    if (publicRoute) {
      const parsed = bruToJsonV2(read(`not-in-the-run/${folderName(publicRoute.operation.tags?.[0] ?? 'other')}/${publicRoute.operation.operationId}.bru`)) as ParsedRequest;
      assert.equal(parsed.http.auth, 'none');
    }
  });
});
