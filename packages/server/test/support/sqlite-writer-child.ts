/**
 * A process that writes through SQLite group commit and prints `acked <n>` for every write whose
 * promise resolved, until it is killed. The test kills it mid-stream and checks that every
 * acknowledged write is in the file. Usage: node --import tsx sqlite-writer-child.ts <file>
 */
import { sql } from 'kysely';
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';

const file = process.argv[2];
if (!file) throw new Error('usage: sqlite-writer-child.ts <file>');
const { db } = openSqlite(file, { backgroundCheckpoints: true });
await sql`create table if not exists acked (n integer primary key, payload text not null)`.execute(db);
process.stdout.write('ready\n');

let next = 0;
// Eight writers at once, so commits are shared; each prints only after its own write resolved.
await Promise.all(
  Array.from({ length: 8 }, async () => {
    for (;;) {
      const n = next++;
      if (n % 2 === 0) {
        await sql`insert into acked (n, payload) values (${n}, ${'x'.repeat(200)})`.execute(db);
      } else {
        await db.transaction().execute((trx) => sql`insert into acked (n, payload) values (${n}, ${'y'.repeat(200)})`.execute(trx));
      }
      process.stdout.write(`acked ${n}\n`);
    }
  }),
);
