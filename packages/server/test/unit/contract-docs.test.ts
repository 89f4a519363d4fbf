/**
 * docs/contract.md states the interface's rules in our own words; the parts the code also holds as
 * data are checked against it: the error table's codes and statuses, and the scopes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorCatalog } from '../../src/core/errors/error-catalog.js';
import { scopes } from '../../src/core/merchants/scopes.js';
import { readDoc, sectionOf } from '../support/markdown-sections.js';

const page = () => readDoc('docs/contract.md');

/** `[status, code]` of every row of the Errors table. */
function documentedErrors(): [number, string][] {
  return sectionOf(page(), '## Errors')
    .split('\n')
    .flatMap((line) => {
      const row = line.match(/^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`/);
      return row ? [[Number(row[1]), row[2]!] as [number, string]] : [];
    });
}

describe('docs/contract.md against the code', () => {
  it('lists error codes the catalog has, each with the status the API sends', () => {
    const rows = documentedErrors();
    assert.ok(rows.length >= 8, `the Errors table has ${rows.length} rows`);
    for (const [status, code] of rows) {
      const entry = (errorCatalog as Record<string, { status: number }>)[code];
      assert.ok(entry, `${code} is not in the error catalog`);
      assert.equal(entry.status, status, `${code} is sent with ${entry.status}, documented ${status}`);
    }
  });

  it('names every scope a key can carry', () => {
    const section = sectionOf(page(), '## Authentication, environments, scopes');
    assert.deepEqual(
      scopes.filter((scope) => !section.includes(`\`${scope}\``)),
      [],
    );
  });
});
