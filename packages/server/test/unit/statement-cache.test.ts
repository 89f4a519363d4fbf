import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { StatementCache } from '../../src/storage/sqlite/statement-cache.js';

describe('SQLite statement cache', () => {
  it('prepares a statement once and reuses it for the same SQL', () => {
    const connection = new BetterSqlite3(':memory:');
    let prepared = 0;
    const original = connection.prepare.bind(connection);
    connection.prepare = ((text: string) => {
      prepared += 1;
      return original(text);
    }) as typeof connection.prepare;
    const cached = new StatementCache(connection);
    for (let i = 0; i < 3; i++) assert.deepEqual(cached.prepare('select ? as n').all([i]), [{ n: i }]);
    assert.equal(prepared, 1);
    connection.close();
  });

  it('keeps at most its capacity, dropping the least recently used', () => {
    const connection = new BetterSqlite3(':memory:');
    const prepared: string[] = [];
    const original = connection.prepare.bind(connection);
    connection.prepare = ((text: string) => {
      prepared.push(text);
      return original(text);
    }) as typeof connection.prepare;
    const cached = new StatementCache(connection, 2);
    cached.prepare('select 1');
    cached.prepare('select 2');
    cached.prepare('select 1'); // now the most recently used
    cached.prepare('select 3'); // evicts select 2
    cached.prepare('select 1');
    cached.prepare('select 2'); // prepared again
    assert.deepEqual(prepared, ['select 1', 'select 2', 'select 3', 'select 2']);
    connection.close();
  });
});
