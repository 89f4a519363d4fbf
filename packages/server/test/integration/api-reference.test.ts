/** The readable API reference at /docs: served without a key, from this origin only, on the API's own document. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const sqlite = testDatabases().find((d) => d.name === 'sqlite')!;
/** The origin the injected requests stand for. */
const ORIGIN = 'http://localhost';

describe('API reference at /docs', () => {
  let t: TestApp;
  let page: { url: URL; response: LightMyRequestResponse };

  /** GET without any key, following redirects as a browser would. */
  async function browse(url: URL): Promise<{ url: URL; response: LightMyRequestResponse }> {
    for (let hops = 0; hops < 5; hops++) {
      const response = await t.app.inject({ url: url.pathname + url.search });
      if (response.statusCode < 300 || response.statusCode >= 400) return { url, response };
      url = new URL(String(response.headers.location), url);
    }
    throw new Error(`too many redirects from ${url.href}`);
  }

  before(async () => {
    t = await buildTestApp(sqlite);
    page = await browse(new URL('/docs', ORIGIN));
  });
  after(() => t.close());

  it('answers an HTML page without an API key', () => {
    assert.equal(page.response.statusCode, 200);
    assert.match(String(page.response.headers['content-type']), /^text\/html/);
    assert.match(page.response.body, /<title>Akwe API reference<\/title>/);
  });

  it('loads only assets of its own origin, and each of them is served', async () => {
    const references = [...page.response.body.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/g)].map((match) => new URL(match[1]!, page.url));
    assert.ok(
      references.some((url) => url.pathname.endsWith('.js')),
      'the page loads its scripts',
    );
    for (const url of references) {
      assert.equal(url.origin, new URL(ORIGIN).origin, `${url.href} is not of this origin`);
      assert.equal((await browse(url)).response.statusCode, 200, url.href);
    }
  });

  it('forbids the browser to load anything from elsewhere (Content-Security-Policy)', async () => {
    const scriptUrl = new URL('/docs/static/swagger-ui-bundle.js', ORIGIN);
    for (const response of [page.response, (await browse(scriptUrl)).response]) {
      const policy = String(response.headers['content-security-policy']);
      const directives = new Map(
        policy
          .split(';')
          .map((directive) => directive.trim().split(/\s+/))
          .map(([name, ...sources]) => [name!, sources]),
      );
      assert.deepEqual(directives.get('default-src'), ["'self'"]);
      for (const [name, sources] of directives) {
        // connect-src also names the API's public URL (PUBLIC_URL), for "Try it out".
        const allowed = ["'self'", "'none'", 'data:', ...(name === 'connect-src' ? [new URL(t.config.publicUrl).origin] : [])];
        for (const source of sources) assert.ok(allowed.includes(source), `${name} allows ${source}`);
      }
    }
  });

  it('renders the document the API serves at /api/v1/openapi.json, with no online validator', async () => {
    const initializerUrl = new URL('/docs/static/swagger-initializer.js', ORIGIN);
    const initializer = (await browse(initializerUrl)).response.body;
    assert.match(initializer, /validatorUrl: null/);
    const documentPath = initializer.match(/url: resolveUrl\('([^']+)'\)/)?.[1];
    assert.ok(documentPath, 'the initializer names the document it loads');
    // resolveUrl resolves against the page's URL with a trailing slash.
    const documentUrl = new URL(documentPath, new URL(page.url.pathname.replace(/\/?$/, '/'), ORIGIN));
    assert.equal(documentUrl.origin, new URL(ORIGIN).origin);
    const shown = await browse(documentUrl);
    const served = await t.app.inject({ url: '/api/v1/openapi.json' });
    assert.equal(shown.response.statusCode, 200);
    assert.deepEqual(shown.response.json(), served.json());
  });

  it('shows the declared tags, the examples and each operation’s error codes (GET /docs/json)', async () => {
    const response = await t.app.inject({ url: '/docs/json' });
    assert.equal(response.statusCode, 200);
    const shown = response.json() as {
      tags: { name: string; description?: string }[];
      paths: Record<
        string,
        Record<
          string,
          {
            tags: string[];
            responses: Record<string, { content: Record<string, { example?: { object?: string }; examples?: Record<string, { value: { error: { code: string } } }> }> }>;
          }
        >
      >;
    };
    const tags = new Map(shown.tags.map((tag) => [tag.name, tag.description]));
    for (const name of ['collect', 'payouts', 'bulk payments', 'balances']) assert.ok(tags.get(name), `tag ${name} is shown with its description`);
    const create = shown.paths['/api/v1/collect/payments']!.post!;
    assert.equal(create.responses['201']!.content['application/json']!.example?.object, 'collect.payment');
    const conflicts = create.responses['409']!.content['application/json']!.examples!;
    assert.equal(conflicts.duplicate_reference!.value.error.code, 'duplicate_reference');
    const batches = shown.paths['/api/v1/bulk-payments/']!.get!;
    assert.deepEqual(batches.tags, ['bulk payments']);
    assert.equal(batches.responses['200']!.content['application/json']!.example?.object, 'list');
  });

  it('is not itself in the document', async () => {
    const document = (await t.app.inject({ url: '/api/v1/openapi.json' })).json() as { paths: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(document.paths).filter((path) => path.startsWith('/docs')),
      [],
    );
  });
});
