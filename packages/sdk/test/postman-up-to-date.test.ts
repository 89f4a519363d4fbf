/**
 * The checked-in Postman collection (examples/akwe.postman_collection.json) is what the served
 * OpenAPI document generates today, and has the shape Postman v2.1 imports: an API change without
 * `npm run generate-postman -w @akwe/sdk` fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
// @ts-expect-error the generator is a plain .mjs script without type declarations
import { generatePostmanCollection, POSTMAN_COLLECTION_PATH } from '../scripts/generate-postman.mjs';
// @ts-expect-error the generator is a plain .mjs script without type declarations
import { fetchServedDocument } from '../scripts/generate-types.mjs';

describe('the Postman collection', () => {
  it('matches the document the server serves, one request per operation in a folder per tag', async () => {
    const document = await fetchServedDocument();
    const expected: string = await generatePostmanCollection(document);
    const checkedIn = readFileSync(POSTMAN_COLLECTION_PATH, 'utf8');
    assert.ok(expected === checkedIn, 'examples/akwe.postman_collection.json is out of date; run npm run generate-postman -w @akwe/sdk');

    const collection = JSON.parse(checkedIn);
    assert.equal(collection.info.schema, 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    assert.deepEqual(collection.auth, { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] });
    const operationCount = Object.values(document.paths as Record<string, object>).flatMap((item) =>
      Object.keys(item).filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method)),
    ).length;
    const requests = collection.item.flatMap((folder: { item: unknown[] }) => folder.item);
    assert.equal(requests.length, operationCount);

    const collect = collection.item.find((folder: { name: string }) => folder.name === 'collect');
    const create = collect.item.find((entry: { name: string }) => entry.name === 'Create a payment');
    assert.equal(create.request.method, 'POST');
    assert.equal(create.request.url.raw, '{{baseUrl}}/api/v1/collect/payments');
    assert.deepEqual(JSON.parse(create.request.body.raw), document.paths['/api/v1/collect/payments'].post.requestBody.content['application/json'].example);
    assert.ok(create.request.header.some((header: { key: string; value: string }) => header.key === 'Idempotency-Key' && header.value === '{{$guid}}'));
    const retrieve = collect.item.find(
      (entry: { request: { method: string; url: { raw: string } } }) =>
        entry.request.method === 'GET' && entry.request.url.raw.startsWith('{{baseUrl}}/api/v1/collect/payments/:reference_or_id'),
    );
    assert.deepEqual(
      retrieve.request.url.variable.map((variable: { key: string }) => variable.key),
      ['reference_or_id'],
    );
  });
});
