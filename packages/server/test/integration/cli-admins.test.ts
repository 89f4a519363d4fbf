/**
 * `akwe admins`, run as a real child process on every database: the only way to make a platform
 * administrator, whose session then reaches the back office, and to take the role away.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runAkwe, runAkweJson } from '../support/child-process.js';
import { dashboardCall, newOwner } from '../support/dashboard.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`akwe admins on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;
    let env: Record<string, string>;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-cli-admins-'));
      t = await buildTestApp(target, { env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' } });
      env = { DATABASE_URL: t.db.url, AKWE_DATA_DIR: dataDir };
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const call = dashboardCall(() => t);
    const merchants = (access: string) => t.app.inject({ method: 'GET', url: '/api/v1/admin/merchants', headers: { authorization: `Bearer ${access}` } });

    it('grant opens the back office to that user, list shows them, revoke closes it at once', async () => {
      const person = await newOwner(call, dataDir);
      assert.equal((await merchants(person.access)).statusCode, 403);

      const granted = await runAkweJson<{ email: string; platform_admin: boolean; changed: boolean }>(['admins', 'grant', person.email.toUpperCase(), '--json'], {
        env,
        cwd: dataDir,
      });
      assert.deepEqual(granted, { email: person.email.toLowerCase(), platform_admin: true, changed: true });
      assert.equal((await merchants(person.access)).statusCode, 200);
      assert.equal((await call('GET', '/me', person.access)).json().platform_admin, true);
      const list = await runAkweJson<Array<{ email: string; granted_by: string }>>(['admins', 'list', '--json'], { env, cwd: dataDir });
      assert.ok(list.some((a) => a.email === person.email.toLowerCase() && a.granted_by === 'cli'));
      assert.equal((await runAkweJson<{ changed: boolean }>(['admins', 'grant', person.email, '--json'], { env, cwd: dataDir })).changed, false);

      const revoked = await runAkwe(['admins', 'revoke', person.email], { env, cwd: dataDir });
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.match(revoked.stdout, /no longer a platform administrator/);
      assert.equal((await merchants(person.access)).statusCode, 403);
      const audit = await t.db.database.db.selectFrom('audit_log').select(['action', 'target']).where('target', 'like', `${person.userId} by %`).orderBy('id').execute();
      assert.deepEqual(
        audit.map((row) => row.action),
        ['admin.granted', 'admin.revoked'],
      );
    });

    it('grant for an address without an account exits 1 with a clear message and no stack trace', async () => {
      const result = await runAkwe(['admins', 'grant', 'nobody@example.com'], { env, cwd: dataDir });
      assert.equal(result.code, 1);
      assert.match(result.stderr, /no dashboard user with the address nobody@example.com/);
      assert.doesNotMatch(result.stderr, /^\s+at .+/m);
    });
  });
}
