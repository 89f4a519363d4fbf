/**
 * The pure parts of @akwe/cli, without a server: the stream parser, the saved listen position, the
 * connection settings and the error lines. The commands against a real server are tested by the
 * server's test/integration/cli-listen.test.ts (through the server's `akwe`) and
 * cli-package.test.ts (this package packed and installed outside the repository).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { apiErrorMessage, connectionFrom } from '../src/api-connection.js';
import { cliStateDir, ListenPosition } from '../src/listen-position.js';
import { SseParser } from '../src/server-sent-events.js';

describe('SseParser', () => {
  it('completes a message only at its blank line, whatever the chunks, and drops comments', () => {
    const parser = new SseParser();
    assert.deepEqual(parser.push(': heartbeat\n\nid: 1\nevent: payout.comp'), []);
    assert.deepEqual(parser.push('leted\ndata: {"a":1}\r\n\r\nid: 2\ndata: x\ndata: y\n\n'), [
      { id: '1', event: 'payout.completed', data: '{"a":1}' },
      { id: '2', data: 'x\ny' },
    ]);
  });
});

describe('ListenPosition', () => {
  it('keeps one file per server, key and filter (in any order), and never writes the key', () => {
    const folder = mkdtempSync(join(tmpdir(), 'akwe-cli-position-'));
    try {
      const key = 'ak_test_secret_key_0123456789';
      const position = new ListenPosition(folder, 'http://localhost:8080', key, 'payout.*,collect.payment.*');
      assert.equal(position.read(), undefined);
      position.write('0193a7c2-6c2f-7d4e-8a31-5b7c9d1e3f52');
      assert.equal(new ListenPosition(folder, 'http://localhost:8080', key, ' collect.payment.*, payout.*').read(), '0193a7c2-6c2f-7d4e-8a31-5b7c9d1e3f52');
      assert.equal(new ListenPosition(folder, 'http://localhost:8080', key, undefined).read(), undefined);
      assert.equal(new ListenPosition(folder, 'http://localhost:9090', key, 'payout.*,collect.payment.*').read(), undefined);
      const [file] = readdirSync(folder);
      assert.doesNotMatch(readFileSync(join(folder, file!), 'utf8') + file, /ak_test_/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('lives in AKWE_CLI_STATE_DIR, else $XDG_CONFIG_HOME/akwe', () => {
    assert.equal(cliStateDir({ AKWE_CLI_STATE_DIR: '/state', XDG_CONFIG_HOME: '/config' }), '/state');
    assert.equal(cliStateDir({ XDG_CONFIG_HOME: '/config' }), join('/config', 'akwe'));
  });
});

describe('connectionFrom', () => {
  it('takes the flags first, then AKWE_API_KEY and AKWE_BASE_URL, and trims the trailing slash', () => {
    assert.deepEqual(connectionFrom({}, { AKWE_API_KEY: 'ak_test_a', AKWE_BASE_URL: 'https://pay.example.com/' }), { apiKey: 'ak_test_a', baseUrl: 'https://pay.example.com' });
    assert.deepEqual(connectionFrom({ apiKey: 'ak_test_b', baseUrl: 'http://127.0.0.1:1' }, { AKWE_API_KEY: 'ak_test_a' }), { apiKey: 'ak_test_b', baseUrl: 'http://127.0.0.1:1' });
    assert.equal(connectionFrom({ apiKey: 'ak_test_b' }, {}).baseUrl, 'http://localhost:8080');
  });

  it('refuses to go on without a key, saying where one goes', () => {
    assert.throws(() => connectionFrom({}, {}), /--api-key .*AKWE_API_KEY/);
  });
});

describe('apiErrorMessage', () => {
  it('prints the code and message, and the hint on its own line when there is one', () => {
    assert.equal(
      apiErrorMessage('unauthenticated', 'API key missing.', 'https://pay.example.com/docs/errors#unauthenticated'),
      'unauthenticated: API key missing.\n  hint: https://pay.example.com/docs/errors#unauthenticated',
    );
    assert.equal(apiErrorMessage('http_502', 'Bad Gateway', undefined), 'http_502: Bad Gateway');
  });
});
