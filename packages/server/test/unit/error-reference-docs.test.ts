/** docs/errors.md lists exactly the codes of the error catalog, each with its HTTP status. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { errorCatalog } from '../../src/core/errors/index.js';

const doc = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');

describe('docs/errors.md', () => {
  it('lists every catalog code once, with its anchor and HTTP status, and no other code', () => {
    const rows = [...doc.matchAll(/^\| <a id="([a-z_]+)"><\/a>`([a-z_]+)` \| (\d{3}) \|/gm)].map(([, anchor, code, status]) => ({ anchor, code, status: Number(status) }));
    for (const row of rows) assert.equal(row.anchor, row.code);
    assert.deepEqual(
      rows.map((row) => `${row.code} ${row.status}`).sort(),
      Object.entries(errorCatalog)
        .map(([code, { status }]) => `${code} ${status}`)
        .sort(),
    );
  });
});
