/**
 * The checked-in types (src/generated/openapi.ts) are what the server's served document generates
 * today: an API change without `npm run generate-types -w @akwe/sdk` fails here, so the SDK's types
 * cannot drift from the API.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
// @ts-expect-error the generator is a plain .mjs script without type declarations
import { fetchServedDocument, generateTypes, GENERATED_TYPES_PATH } from '../scripts/generate-types.mjs';

describe('generated OpenAPI types', () => {
  it('match the document the server serves', async () => {
    const expected: string = await generateTypes(await fetchServedDocument());
    const checkedIn = readFileSync(GENERATED_TYPES_PATH, 'utf8');
    // A plain equality on 14 000 lines prints a useless diff: point at the first line that differs.
    const expectedLines = expected.split('\n');
    const actualLines = checkedIn.split('\n');
    const first = expectedLines.findIndex((line, index) => line !== actualLines[index]);
    assert.ok(
      expected === checkedIn,
      `src/generated/openapi.ts is out of date (first difference at line ${first + 1}: expected ${JSON.stringify(expectedLines[first])}, found ${JSON.stringify(actualLines[first])}); run npm run generate-types -w @akwe/sdk`,
    );
  });
});
