import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../src/config.js';
import { loadDefaultCatalog } from '../../../src/core/catalog/operator-catalog.js';
import type { MtnMomoConnector } from '../../../src/operators/mtn-momo/mtn-momo-connector.js';
import { loadOperatorsFile, parseOperatorsConfig } from '../../../src/operators/operators-file.js';
import { SecretValue } from '../../../src/operators/secret-value.js';
import { FakeClock } from '../../support/fake-clock.js';

const context = (env: Record<string, string> = {}) => ({
  catalog: loadDefaultCatalog(),
  publicUrl: 'https://akwe.example/',
  serverSecret: () => 'operators-file-test-secret',
  clock: new FakeClock(),
  env,
});

const product = { subscription_key: 'env:MTN_SUB', api_user: '7c2f53f2-1b1e-4f8f-9d1e-2b0c6e6f0a01', api_key: 'inline-api-key' };
const mtnBenin = { connector: 'mtn-momo', base_url: 'https://proxy.momoapi.mtn.com', target_environment: 'mtnbenin', collection: product, disbursement: product };

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.problems;
  }
  assert.fail('expected a ConfigError');
}

describe('operators file', () => {
  it('builds one MTN connector per catalog slug, with secrets from the environment and the callback URL from PUBLIC_URL', () => {
    const configured = parseOperatorsConfig(
      { operators: { mtn_bj: mtnBenin, mtn_ci: { ...mtnBenin, target_environment: 'mtnivorycoast', disbursement: undefined } } },
      'test',
      context({ MTN_SUB: 'secret-sub' }),
    );
    assert.deepEqual(
      configured.map((entry) => [entry.slug, entry.gatewayCode, entry.family]),
      [
        ['mtn_bj', 'MTN_BJ', 'mtn-momo'],
        ['mtn_ci', 'MTN_CI', 'mtn-momo'],
      ],
    );
    const benin = configured[0]!.connector as MtnMomoConnector;
    assert.equal(benin.settings.products.collection?.subscriptionKey.reveal(), 'secret-sub');
    assert.equal(benin.settings.currency, 'XOF', 'the country’s currency by default');
    assert.equal(benin.settings.callbackBaseUrl, 'https://akwe.example/api/v1/operators/mtn-momo/callbacks');
    assert.ok(benin.push && benin.payouts && benin.refunds, 'collection and disbursement: every flow');
    const ivory = configured[1]!.connector;
    assert.ok(ivory.push && !ivory.payouts && !ivory.refunds, 'no disbursement credentials: no payouts, no refunds');
  });

  it('reports every problem at once, each naming where it is', () => {
    const problems = problemsOf(() =>
      parseOperatorsConfig(
        {
          operators: {
            mtn_xx: mtnBenin,
            moov_bj: mtnBenin,
            mtn_ci: { ...mtnBenin, connector: 'paypal' },
            mtn_bj: { ...mtnBenin, target_environment: '', colection: {} },
          },
        },
        'test',
        context({ MTN_SUB: 'x' }),
      ),
    );
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.match(problems.join('\n'), /operators\.mtn_xx is not an operator slug of the catalog/);
    assert.match(problems.join('\n'), /operators\.moov_bj: the mtn-momo connector cannot serve Moov/);
    assert.match(problems.join('\n'), /operators\.mtn_ci\.connector must be one of mtn-momo/);
    assert.match(problems.join('\n'), /operators\.mtn_bj\.target_environment/);
    assert.match(problems.join('\n'), /operators\.mtn_bj has an unknown field "colection"/);
  });

  it('names an env: secret whose variable is not set, without printing any secret', () => {
    const problems = problemsOf(() => parseOperatorsConfig({ operators: { mtn_bj: mtnBenin } }, 'test', context()));
    assert.deepEqual(problems, [
      'test: operators.mtn_bj.collection.subscription_key names the environment variable MTN_SUB, which is not set',
      'test: operators.mtn_bj.disbursement.subscription_key names the environment variable MTN_SUB, which is not set',
    ]);
    assert.ok(!problems.join('').includes('inline-api-key'));
  });

  it('refuses a file that is not JSON, or not shaped as { operators }', () => {
    const dir = mkdtempSync(join(tmpdir(), 'akwe-ops-'));
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "operators": ');
    assert.match(problemsOf(() => loadOperatorsFile(broken, context()))[0]!, /OPERATORS_FILE .*broken\.json/);
    assert.match(problemsOf(() => loadOperatorsFile(join(dir, 'missing.json'), context()))[0]!, /ENOENT/);
    assert.equal(problemsOf(() => parseOperatorsConfig({ mtn_bj: mtnBenin }, 'test', context())).length, 1);
  });

  it('keeps secrets out of logs, JSON and inspection', () => {
    const secret = new SecretValue('do-not-print');
    assert.equal(JSON.stringify({ secret }), '{"secret":"[secret]"}');
    assert.equal(`${secret}`, '[secret]');
    assert.ok(!inspect({ secret }).includes('do-not-print'));
    const [entry] = parseOperatorsConfig({ operators: { mtn_bj: mtnBenin } }, 'test', context({ MTN_SUB: 'sub-secret-value' }));
    const printed = JSON.stringify((entry!.connector as MtnMomoConnector).settings) + inspect(entry, { depth: 10 });
    assert.ok(!printed.includes('sub-secret-value') && !printed.includes('inline-api-key'), printed);
  });
});
