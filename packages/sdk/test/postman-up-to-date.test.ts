/**
 * The checked-in Postman collection (examples/akwe.postman_collection.json) is what the served
 * OpenAPI document generates today, and has the shape Postman v2.1 imports: an API change without
 * `npm run generate-postman -w @akwe/sdk` fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
// @ts-expect-error the tour is a plain .mjs script without type declarations
import { SKIPPED_FOLDER, TOUR, TOUR_FOLDER } from '../scripts/collection-tour.mjs';
// @ts-expect-error the generator is a plain .mjs script without type declarations
import { generatePostmanCollection, POSTMAN_COLLECTION_PATH } from '../scripts/generate-postman.mjs';
// @ts-expect-error the generator is a plain .mjs script without type declarations
import { fetchServedDocument } from '../scripts/generate-types.mjs';

interface Item {
  name: string;
  item?: Item[];
  request: { method: string; url: { raw: string; variable?: { key: string; value: string }[] }; body?: { raw: string }; header: { key: string; value: string }[] };
  event?: { listen: string; script: { exec: string[] } }[];
}

describe('the Postman collection', () => {
  it('matches the document the server serves: the tour in order, every other operation in a folder per tag the run skips', async () => {
    const document = await fetchServedDocument();
    const expected: string = await generatePostmanCollection(document);
    const checkedIn = readFileSync(POSTMAN_COLLECTION_PATH, 'utf8');
    assert.ok(expected === checkedIn, 'examples/akwe.postman_collection.json is out of date; run npm run generate-postman -w @akwe/sdk');

    const collection = JSON.parse(checkedIn);
    assert.equal(collection.info.schema, 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    assert.deepEqual(collection.auth, { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] });
    assert.deepEqual(
      collection.item.map((folder: Item) => folder.name),
      [TOUR_FOLDER, SKIPPED_FOLDER],
    );
    const [tour, skipped] = collection.item as [Item, Item];
    const operationCount = Object.values(document.paths as Record<string, object>).flatMap((item) =>
      Object.keys(item).filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method)),
    ).length;
    const toured = new Set((TOUR as { op: string }[]).map((step) => step.op));
    assert.equal(tour.item!.length, TOUR.length);
    assert.equal(skipped.item!.flatMap((folder) => folder.item!).length, operationCount - toured.size, 'every operation is in the tour or in the skipped folder');

    for (const [index, step] of (TOUR as { expect: number }[]).entries()) {
      const exec = tour.item![index]!.event?.find((event) => event.listen === 'test')?.script.exec.join('\n') ?? '';
      assert.match(exec, new RegExp(`pm\\.response\\.to\\.have\\.status\\(${step.expect}\\)`), tour.item![index]!.name);
    }
    const create = tour.item!.find((entry) => entry.name === 'Create a payment')!;
    assert.equal(create.request.method, 'POST');
    assert.equal(create.request.url.raw, '{{baseUrl}}/api/v1/collect/payments');
    assert.match(JSON.parse(create.request.body!.raw).reference, /\{\{\$timestamp\}\}$/);
    assert.ok(create.request.header.some((header) => header.key === 'Idempotency-Key' && header.value === '{{$guid}}'));
    assert.ok(create.event![0]!.script.exec.includes("pm.collectionVariables.set('paymentId', body.id);"));
    const retrieve = tour.item!.find((entry) => entry.request.method === 'GET' && entry.request.url.raw.startsWith('{{baseUrl}}/api/v1/collect/payments/:reference_or_id'))!;
    assert.deepEqual(
      retrieve.request.url.variable!.map((variable) => [variable.key, variable.value]),
      [['reference_or_id', '{{paymentId}}']],
    );
    const stream = skipped.item!.flatMap((folder) => folder.item!).find((entry) => entry.request.url.raw.startsWith('{{baseUrl}}/api/v1/events/stream'));
    assert.ok(stream, 'the event stream, which never ends, is left out of the tour');
  });
});
