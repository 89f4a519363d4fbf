/**
 * The `akwe` command line, run as a real child process on every database. What the CLI writes
 * must be what the API reads: each key it prints is checked against services built in this
 * process on the same database.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { scopes } from '../../src/core/merchants/scopes.js';
import { createServices, type Services } from '../../src/services.js';
import { migrations } from '../../src/storage/migrations/index.js';
import { pendingMigrations } from '../../src/storage/migrator.js';
import { runAkwe, runAkweJson } from '../support/child-process.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

interface MerchantJson {
  id: string;
  name: string;
  status: string;
  kyc_status: string;
  created_at: string;
  updated_at: string;
}

interface CreatedMerchantJson {
  merchant: MerchantJson;
  test_key: { id: string; key: string };
  live_key: { id: string; key: string };
}

interface StatusChangeJson {
  id: string;
  merchant_id: string;
  field: string;
  from: string | null;
  to: string;
  actor: string;
  changed_at: string;
}

interface KeyJson {
  id: string;
  merchant_id: string;
  environment: string;
  display: string;
  scopes: string[];
  created_at: string;
  revoked_at: string | null;
  key?: string;
}

const stackTraceLine = /^\s+at .+/m;
const display = (secret: string) => `${secret.slice(0, 12)}…${secret.slice(-4)}`;

describe('akwe --help', () => {
  // Commands and whether they take --json. Help never opens a database, so one run covers both.
  const commands: [string[], boolean][] = [
    [[], false],
    [['serve'], false],
    [['worker'], false],
    [['migrate'], true],
    [['merchants'], false],
    [['merchants', 'create'], true],
    [['merchants', 'list'], true],
    [['merchants', 'set'], true],
    [['merchants', 'history'], true],
    [['keys'], false],
    [['keys', 'create'], true],
    [['keys', 'list'], true],
    [['keys', 'revoke'], true],
    [['keys', 'over-scoped'], true],
    [['webhooks'], false],
    [['webhooks', 'reseal-secrets'], true],
    [['listen'], false],
    [['trigger'], true],
    [['payments', 'list'], true],
    [['payouts', 'get'], true],
    [['events', 'resend'], true],
  ];

  it('exits 0 for every command and mentions --json exactly where the command takes it', async () => {
    const results = await Promise.all(commands.map(([command]) => runAkwe([...command, '--help'])));
    commands.forEach(([command, takesJson], i) => {
      const name = ['akwe', ...command].join(' ');
      const result = results[i]!;
      assert.equal(result.code, 0, `${name} --help exited with ${result.code}: ${result.stderr}`);
      assert.match(result.stdout, new RegExp(`^Usage: ${name} `), `${name} --help printed another command's help`);
      assert.equal(result.stdout.includes('--json'), takesJson, `${name} --help ${takesJson ? 'does not mention' : 'mentions'} --json`);
    });
  });
});

for (const target of testDatabases()) {
  describe(`akwe CLI on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    let services: Services;
    let dataDir: string;
    let env: Record<string, string>;
    /** Created with the default KYC status. */
    let plain: CreatedMerchantJson;
    /** Created with --kyc validated. */
    let validated: CreatedMerchantJson;
    let scopedKey: KeyJson & { key: string };

    const akwe = (args: string[]) => runAkwe(args, { env, cwd: dataDir });
    const akweJson = <T>(args: string[]) => runAkweJson<T>(args, { env, cwd: dataDir });

    before(async () => {
      db = await target.open();
      services = createServices({ database: db.database, catalog: loadDefaultCatalog() });
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-cli-'));
      // The URL reaches this very database; for PostgreSQL it carries the test schema as search_path.
      env = { DATABASE_URL: db.url, AKWE_DATA_DIR: dataDir };
      plain = await akweJson<CreatedMerchantJson>(['merchants', 'create', '--name', 'Boutique Cotonou', '--json']);
      validated = await akweJson<CreatedMerchantJson>(['merchants', 'create', '--name', 'Marché Lomé', '--kyc', 'validated', '--json']);
    });
    after(async () => {
      await db?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('merchants create --json prints the merchant, a test key and a live key, and both keys authenticate on the same database', async () => {
      assert.equal(plain.merchant.name, 'Boutique Cotonou');
      assert.equal(plain.merchant.status, 'active');
      assert.equal(plain.merchant.kyc_status, 'pending');
      assert.match(plain.test_key.key, /^ak_test_[A-Za-z0-9_-]{43}$/);
      assert.match(plain.live_key.key, /^ak_live_[A-Za-z0-9_-]{43}$/);

      for (const [issued, environment] of [
        [plain.test_key, 'test'],
        [plain.live_key, 'live'],
      ] as const) {
        const result = await services.merchants.authenticate(issued.key);
        assert.equal(result.outcome, 'authenticated', `the ${environment} key printed by the CLI does not authenticate`);
        if (result.outcome !== 'authenticated') return;
        assert.equal(result.principal.merchantId, plain.merchant.id);
        assert.equal(result.principal.keyId, issued.id);
        assert.equal(result.principal.environment, environment);
        assert.deepEqual(result.principal.scopes, []);
      }
    });

    it('merchants create --kyc validated stores the merchant as KYC-validated', async () => {
      assert.equal(validated.merchant.kyc_status, 'validated');
      const result = await services.merchants.authenticate(validated.test_key.key);
      assert.equal(result.outcome, 'authenticated');
      if (result.outcome === 'authenticated') assert.equal(result.principal.merchant.kycStatus, 'validated');
    });

    it('merchants list --json lists every merchant with its status and KYC status', async () => {
      const list = await akweJson<MerchantJson[]>(['merchants', 'list', '--json']);
      assert.deepEqual(
        list.map((m) => [m.id, m.name, m.status, m.kyc_status]).sort(),
        [
          [plain.merchant.id, 'Boutique Cotonou', 'active', 'pending'],
          [validated.merchant.id, 'Marché Lomé', 'active', 'validated'],
        ].sort(),
      );
    });

    it('merchants set --kyc --status changes both and the change is stored', async () => {
      const updated = await akweJson<MerchantJson>(['merchants', 'set', '--merchant', plain.merchant.id, '--kyc', 'validated', '--status', 'suspended', '--json']);
      assert.equal(updated.id, plain.merchant.id);
      assert.equal(updated.kyc_status, 'validated');
      assert.equal(updated.status, 'suspended');
      const stored = (await services.merchants.listMerchants()).find((m) => m.id === plain.merchant.id);
      assert.equal(stored?.kycStatus, 'validated');
      assert.equal(stored?.status, 'suspended');
    });

    it('merchants history --json lists the changes of set newest first, then the creation, each by cli', async () => {
      // A set to the statuses the merchant has already (after the test above) records nothing.
      const unchanged = await akwe(['merchants', 'set', '--merchant', plain.merchant.id, '--kyc', 'validated', '--status', 'suspended']);
      assert.equal(unchanged.code, 0, unchanged.stderr);

      const history = await akweJson<StatusChangeJson[]>(['merchants', 'history', '--merchant', plain.merchant.id, '--json']);
      assert.equal(history.length, 4);
      for (const change of history) {
        assert.equal(change.merchant_id, plain.merchant.id);
        assert.equal(change.actor, 'cli');
      }
      assert.deepEqual(
        history
          .slice(0, 2)
          .map((c) => [c.field, c.from, c.to])
          .sort(),
        [
          ['kyc_status', 'pending', 'validated'],
          ['status', 'active', 'suspended'],
        ],
      );
      assert.deepEqual(
        history
          .slice(2)
          .map((c) => [c.field, c.from, c.to, c.changed_at])
          .sort(),
        [
          ['kyc_status', null, 'pending', plain.merchant.created_at],
          ['status', null, 'active', plain.merchant.created_at],
        ],
      );
      const stored = await services.merchants.statusHistory(plain.merchant.id);
      assert.deepEqual(
        history.map((c) => c.id),
        stored.map((c) => c.id),
        'the CLI and the service disagree on the order',
      );
    });

    it('merchants history prints a table: one line per change, newest first, "-" where a status started', async () => {
      const result = await akwe(['merchants', 'history', '--merchant', plain.merchant.id]);
      assert.equal(result.code, 0, result.stderr);
      const [header, ...lines] = result.stdout.trimEnd().split('\n');
      assert.match(header!, /^changed\s+field\s+from\s+to\s+actor$/);
      const rows = lines.map((line) => line.split(/\s+/));
      const created = plain.merchant.created_at;
      assert.deepEqual(
        rows
          .slice(0, 2)
          .map(([changed, ...rest]) => [changed! > created, ...rest])
          .sort(),
        [
          [true, 'kyc_status', 'pending', 'validated', 'cli'],
          [true, 'status', 'active', 'suspended', 'cli'],
        ],
      );
      assert.deepEqual(rows.slice(2).sort(), [
        [created, 'kyc_status', '-', 'pending', 'cli'],
        [created, 'status', '-', 'active', 'cli'],
      ]);
    });

    it('merchants history for an unknown merchant exits 1 with a clear message and no stack trace', async () => {
      const unknown = '00000000-0000-7000-8000-000000000000';
      const result = await akwe(['merchants', 'history', '--merchant', unknown, '--json']);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, new RegExp(`^akwe: no merchant with id ${unknown}`));
      assert.doesNotMatch(result.stderr, stackTraceLine);
    });

    it('two merchants set processes at once are both recorded, the second from where the first left the KYC status', async () => {
      const { merchant } = await services.merchants.createMerchant({ name: 'Kiosque Kara', keyEnvironments: [] });
      const results = await Promise.all(['submitted', 'rejected'].map((kyc) => akwe(['merchants', 'set', '--merchant', merchant.id, '--kyc', kyc])));
      for (const result of results) assert.equal(result.code, 0, result.stderr);

      const history = await akweJson<StatusChangeJson[]>(['merchants', 'history', '--merchant', merchant.id, '--json']);
      const kyc = history.filter((c) => c.field === 'kyc_status').reverse();
      assert.equal(kyc.length, 3, 'a concurrent set was lost');
      assert.equal(kyc[0]!.from, null);
      assert.equal(kyc[1]!.from, 'pending');
      assert.equal(kyc[2]!.from, kyc[1]!.to);
      assert.deepEqual([kyc[1]!.to, kyc[2]!.to].sort(), ['rejected', 'submitted']);
      assert.equal((await services.merchants.getMerchant(merchant.id)).kycStatus, kyc[2]!.to);
    });

    it('keys create --env live --scopes issues a live key with exactly those scopes', async () => {
      const issued = await akweJson<KeyJson>(['keys', 'create', '--merchant', validated.merchant.id, '--env', 'live', '--scopes', 'collect:read,payout:read', '--json']);
      assert.equal(issued.merchant_id, validated.merchant.id);
      assert.equal(issued.environment, 'live');
      assert.deepEqual(issued.scopes, ['collect:read', 'payout:read']);
      assert.equal(issued.revoked_at, null);
      assert.ok(issued.key !== undefined, 'keys create must print the new key once');
      assert.match(issued.key, /^ak_live_[A-Za-z0-9_-]{43}$/);
      assert.equal(issued.display, display(issued.key));
      scopedKey = { ...issued, key: issued.key };

      const result = await services.merchants.authenticate(issued.key);
      assert.equal(result.outcome, 'authenticated');
      if (result.outcome !== 'authenticated') return;
      assert.equal(result.principal.keyId, issued.id);
      assert.equal(result.principal.environment, 'live');
      assert.deepEqual(result.principal.scopes, ['collect:read', 'payout:read']);
    });

    it('keys create with an unknown scope exits non-zero, names the known scopes, and creates no key', async () => {
      const before = (await services.merchants.listKeys()).length;
      const result = await akwe(['keys', 'create', '--merchant', validated.merchant.id, '--env', 'test', '--scopes', 'collect:read,collect:everything']);
      assert.notEqual(result.code, 0);
      assert.match(result.stderr, /collect:everything/);
      for (const scope of scopes) assert.ok(result.stderr.includes(scope), `the message does not name the known scope ${scope}: ${result.stderr}`);
      assert.doesNotMatch(result.stderr, stackTraceLine);
      assert.equal(result.stdout, '');
      assert.equal((await services.merchants.listKeys()).length, before);
    });

    it('keys create for an unknown merchant exits 1 with a clear message and no stack trace', async () => {
      const unknown = '00000000-0000-7000-8000-000000000000';
      const result = await akwe(['keys', 'create', '--merchant', unknown, '--env', 'test', '--json']);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      assert.match(result.stderr, new RegExp(`no merchant with id ${unknown}`));
      assert.doesNotMatch(result.stderr, stackTraceLine);
    });

    it('keys list --json shows every key as prefix…last four and never a full key', async () => {
      const result = await akwe(['keys', 'list', '--json']);
      assert.equal(result.code, 0, result.stderr);
      const secrets = [plain.test_key, plain.live_key, validated.test_key, validated.live_key, scopedKey].map((k) => ({ id: k.id, key: k.key }));
      for (const { key } of secrets) assert.ok(!result.stdout.includes(key), 'keys list printed a full key');

      const list = JSON.parse(result.stdout) as KeyJson[];
      assert.equal(list.length, secrets.length);
      for (const entry of list) {
        assert.equal(entry.key, undefined);
        assert.match(entry.display, /^ak_(test|live)_[A-Za-z0-9_-]{4}…[A-Za-z0-9_-]{4}$/);
      }
      for (const { id, key } of secrets) {
        assert.equal(list.find((k) => k.id === id)?.display, display(key), `key ${id} is missing or shown wrongly`);
      }
    });

    it('keys revoke makes the key fail authentication at once, and the merchant’s other keys keep working', async () => {
      const revoked = await akweJson<KeyJson>(['keys', 'revoke', scopedKey.id, '--json']);
      assert.equal(revoked.id, scopedKey.id);
      assert.equal(typeof revoked.revoked_at, 'string');
      assert.equal((await services.merchants.authenticate(scopedKey.key)).outcome, 'invalid_key');
      assert.equal((await services.merchants.authenticate(validated.live_key.key)).outcome, 'authenticated');
    });

    it('migrate --json applies every migration, starting with 0001-foundation, to an empty database, and a second run applies nothing', async () => {
      const fresh = await target.open({ migrate: false });
      try {
        const freshEnv = { env: { DATABASE_URL: fresh.url, AKWE_DATA_DIR: dataDir }, cwd: dataDir };
        assert.deepEqual(await pendingMigrations(fresh.database), Object.keys(migrations));
        const first = await runAkweJson<{ database: string; applied: string[] }>(['migrate', '--json'], freshEnv);
        assert.equal(first.applied[0], '0001-foundation');
        assert.deepEqual(first.applied, Object.keys(migrations));
        // Applied to this very database (for PostgreSQL: in the schema the URL names).
        assert.deepEqual(await pendingMigrations(fresh.database), []);
        const second = await runAkweJson<{ database: string; applied: string[] }>(['migrate', '--json'], freshEnv);
        assert.deepEqual(second.applied, []);
      } finally {
        await fresh.close();
      }
    });
  });
}
