/**
 * The OpenAPI document is generated from the routes, covers every one of them, passes a validator
 * and Spectral's OpenAPI rules, and types a client an integrator can build on.
 * The checks go through the routes the app really registers, so a new route is covered by itself.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { RouteOptions } from 'fastify';
import { errorCatalog, type ErrorCode } from '../../src/core/errors/index.js';
import { EVENT_TYPES } from '../../src/core/events/event-types.js';
import type { IdempotencyRouteConfig } from '../../src/http/plugins/idempotency.js';
import { INTEGRATION_SAMPLE, typeCheckAgainstDocument, WRONG_INTEGRATION_SAMPLE } from '../support/openapi-client/typed-client.js';
import { recordRoutes } from '../support/route-recorder.js';
import { documentValidator, mediaBodies, mediaExamples, schemasWithExamples } from '../support/openapi-examples.js';
import { redoclyLint } from '../support/redocly.js';
import { spectralLint } from '../support/spectral.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const sqlite = testDatabases().find((d) => d.name === 'sqlite')!;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Operation {
  method: string;
  path: string;
  operation: Json;
}

function operationsOf(document: Json): Operation[] {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ method, path, operation: operation as Json })),
  );
}

/** The routes the document must show: every registered route not hidden, HEAD twins aside. */
function documentedRoutes(routes: RouteOptions[]): { method: string; path: string; route: RouteOptions }[] {
  return routes
    .filter((route) => (route.schema as { hide?: boolean } | undefined)?.hide !== true)
    .flatMap((route) => [route.method].flat().map((method) => ({ method: method.toLowerCase(), path: route.url.replace(/:(\w+)/g, '{$1}'), route })))
    .filter(({ method }) => method !== 'head');
}

/** Every schema node of the document, wherever it is. */
function* allNodes(node: unknown): Generator<Json> {
  if (Array.isArray(node)) for (const item of node) yield* allNodes(item);
  else if (node && typeof node === 'object') {
    yield node as Json;
    for (const value of Object.values(node)) yield* allNodes(value);
  }
}

/**
 * The error bodies an error response's schema allows, each with the codes its `code` enum allows:
 * `allOf: [{$ref: Error}, {properties: {error: {properties: {code: {enum}}}}}]` (or LegacyError with
 * a root `code`), alone or as a member of a union.
 */
function codeEnumsOf(schema: Json): { body: string; codes: string[] }[] {
  if (Array.isArray(schema.anyOf)) return schema.anyOf.flatMap(codeEnumsOf);
  if (!Array.isArray(schema.allOf)) return [];
  const body = schema.allOf.find((member: Json) => member.$ref)?.$ref as string | undefined;
  const narrowing = schema.allOf.find((member: Json) => !member.$ref) as Json | undefined;
  const codes = narrowing?.properties?.error?.properties?.code?.enum ?? narrowing?.properties?.code?.enum;
  return body && Array.isArray(codes) ? [{ body, codes }] : [];
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let routes: RouteOptions[];
  let document: Json;

  before(async () => {
    ({ result: t, routes } = await recordRoutes(() => buildTestApp(sqlite)));
    const res = await t.app.inject({ url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    document = res.json();
  });
  after(() => t.close());

  it('is served without an API key as OpenAPI 3.1, at /api/v1/openapi.json and at the earlier /api/v1/collect/openapi.json', async () => {
    assert.equal(document.openapi, '3.1.0');
    const earlier = await t.app.inject({ url: '/api/v1/collect/openapi.json' });
    assert.equal(earlier.statusCode, 200);
    assert.deepEqual(earlier.json(), document);
  });

  it('passes the swagger-parser validator', async () => {
    await SwaggerParser.validate(structuredClone(document) as never);
  });

  it('passes Spectral’s OpenAPI rules (.spectral.yaml) with no error and no warning', async () => {
    const results = await spectralLint(document);
    const errorsAndWarnings = results.filter((result) => result.severity <= 1);
    assert.deepEqual(
      errorsAndWarnings.map((e) => `${e.code} at ${e.path.join('.')}: ${e.message}`),
      [],
    );
  });

  it('passes Redocly’s recommended rules (redocly.yaml) with no error and no warning', async () => {
    const problems = await redoclyLint(document);
    assert.deepEqual(
      problems.map((p) => `${p.severity} ${p.ruleId} at ${p.pointer}: ${p.message}`),
      [],
    );
  });

  it('shows an example on every request body and every response body, error responses included', () => {
    const missing = mediaBodies(document)
      .filter(({ media }) => mediaExamples(media).length === 0)
      .map(({ where }) => where);
    assert.deepEqual(missing, []);
    const created = document.paths['/api/v1/collect/payments'].post;
    assert.equal(created.responses['201'].content['application/json'].example.object, 'collect.payment');
    const conflict = created.responses['409'].content['application/json'].examples;
    assert.deepEqual(Object.keys(conflict), ['duplicate_reference', 'idempotency_request_in_progress', 'operator_call_in_progress', 'invalid_state_transition']);
    assert.equal(conflict.duplicate_reference.value.error.code, 'duplicate_reference');
  });

  it('has every example valid against its own schema (so a renamed or retyped field fails here)', () => {
    const validate = documentValidator(document);
    const problems: string[] = [];
    for (const { where, pointer, media } of mediaBodies(document)) {
      for (const example of mediaExamples(media)) problems.push(...validate(`${pointer}/schema`, example).map((problem) => `${where}: ${problem}`));
    }
    const schemaExamples = [...schemasWithExamples(document)];
    assert.ok(
      schemaExamples.some(({ pointer }) => pointer === '/components/schemas/Payment'),
      'the named objects carry their examples',
    );
    for (const { pointer, examples } of schemaExamples) {
      for (const example of examples) problems.push(...validate(pointer, example).map((problem) => `${pointer}: ${problem}`));
    }
    assert.deepEqual(problems, []);
  });

  it('finds a wrong example (the check itself can fail)', () => {
    const validate = documentValidator(document);
    const example = structuredClone(document.paths['/api/v1/collect/payments'].post.responses['201'].content['application/json'].example);
    delete example.amount_minor;
    assert.ok(validate(mediaBodies(document).find(({ where }) => where === 'POST /api/v1/collect/payments 201 application/json')!.pointer + '/schema', example).length > 0);
  });

  it('states the unit of every money field, with a conversion, in its description', () => {
    const money = /(^|_)(amount|fee|total|available|reserved|change|minor)(_|$)/;
    const unit = /\b(centimes|major units)\b/i;
    const conversion = /\d[\d ]* = \d[\d ]* (FCFA|XOF)/;
    const found: string[] = [];
    const missing: string[] = [];
    for (const node of allNodes(document)) {
      // A query parameter (a list filter on an amount) is a money field too.
      const fields = typeof node.in === 'string' && node.schema ? { [node.name]: { ...node.schema, description: node.description ?? node.schema.description } } : node.properties;
      if (!fields || typeof fields !== 'object' || Array.isArray(fields)) continue;
      for (const [name, property] of Object.entries(fields as Json)) {
        if (!money.test(name) || ![property?.type].flat().includes('integer')) continue;
        found.push(name);
        if (!unit.test(property.description ?? '') || !conversion.test(property.description ?? '')) missing.push(`${name}: ${JSON.stringify(property.description)}`);
      }
    }
    for (const name of [
      'amount',
      'amount_minor',
      'refunded_amount',
      'refunded_amount_minor',
      'fee_minor',
      'total_amount_minor',
      'min_amount',
      'min_amount_minor',
      'available_minor',
    ])
      assert.ok(found.includes(name), `no ${name} field found: the walk misses money fields`);
    assert.deepEqual([...new Set(missing)], []);
  });

  it('declares, with a description, every tag an operation or a webhook uses', () => {
    const declared = new Map((document.tags as Json[]).map((tag) => [tag.name as string, tag.description as string | undefined]));
    const webhookOperations = Object.values(document.webhooks as Json).map((item) => (item as Json).post as Json);
    const used = new Set([...operationsOf(document).map(({ operation }) => operation), ...webhookOperations].flatMap((operation) => operation.tags ?? []));
    assert.ok(used.has('bulk payments') && used.has('balances'));
    for (const tag of used) assert.ok(declared.get(tag as string)?.trim(), `tag "${tag}" is used but not declared with a description`);
  });

  it('shows every route the app serves (and no health probe), each under a unique operationId', () => {
    const operations = operationsOf(document);
    const expected = documentedRoutes(routes)
      .map(({ method, path }) => `${method} ${path}`)
      .sort();
    assert.deepEqual(operations.map(({ method, path }) => `${method} ${path}`).sort(), expected);
    assert.ok(!('/health' in document.paths) && !('/ready' in document.paths) && !('/docs' in document.paths));
    for (const { method, path, operation } of operations)
      assert.match(operation.operationId ?? '', /^[a-z][A-Za-z]+$/, `${method} ${path} needs an operationId in its route schema`);
    const ids = operations.map(({ operation }) => operation.operationId);
    assert.equal(new Set(ids).size, ids.length, `duplicate operationIds: ${ids.join(', ')}`);
  });

  it('declares the Idempotency-Key header on exactly the routes that honour it, required where the route requires it', () => {
    for (const { method, path, route } of documentedRoutes(routes)) {
      const idempotency = (route.config as { idempotency?: IdempotencyRouteConfig } | undefined)?.idempotency;
      const header = (document.paths[path][method].parameters ?? []).find((p: Json) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (!idempotency) {
        assert.equal(header, undefined, `${method} ${path} takes no Idempotency-Key`);
        continue;
      }
      assert.ok(header, `${method} ${path} should declare Idempotency-Key`);
      assert.equal(header.required, idempotency.required, `${method} ${path}`);
      assert.equal(header.schema.maxLength, idempotency.maxKeyLength ?? 255, `${method} ${path}`);
    }
    const create = document.paths['/api/v1/collect/payments'].post;
    assert.equal(create.parameters.find((p: Json) => p.name === 'Idempotency-Key').required, true);
  });

  it('declares both ways of sending the key, and names each operation’s scope and rate-limit budget', () => {
    assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['apiKeyHeader', 'bearerAuth', 'dashboardSession']);
    assert.deepEqual(document.security, [{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    // Each operation's schemes (its own list, else the document's) follow how its route authenticates.
    const schemesOf = (operation: Json) => ((operation.security ?? document.security) as Json[]).flatMap((requirement) => Object.keys(requirement)).sort();
    const seen = { apiKey: 0, open: 0, dashboardSession: 0, dashboardSignedOut: 0 };
    for (const { method, path, route } of documentedRoutes(routes)) {
      const config = (route.config ?? {}) as { public?: boolean; dashboardSession?: boolean };
      const schemes = schemesOf(document.paths[path][method]);
      if (path.startsWith('/api/v1/dashboard/') || path.startsWith('/api/v1/admin/')) {
        const kind = config.dashboardSession === true ? 'dashboardSession' : 'dashboardSignedOut';
        assert.deepEqual(schemes, kind === 'dashboardSession' ? ['dashboardSession'] : [], `${method} ${path}`);
        seen[kind] += 1;
      } else {
        const kind = config.public === true ? 'open' : 'apiKey';
        assert.deepEqual(schemes, kind === 'apiKey' ? ['apiKeyHeader', 'bearerAuth'] : [], `${method} ${path}`);
        seen[kind] += 1;
      }
    }
    assert.ok(seen.apiKey > 0 && seen.dashboardSession > 0 && seen.dashboardSignedOut > 0, JSON.stringify(seen));
    assert.deepEqual(document.paths['/api/v1/dashboard/me'].get.security, [{ dashboardSession: [] }]);
    assert.deepEqual(document.paths['/api/v1/dashboard/auth/sign-in'].post.security, []);
    assert.match(document.paths['/api/v1/dashboard/me'].get.description, /dashboard session/);
    assert.doesNotMatch(document.paths['/api/v1/dashboard/me'].get.description, /budget|Any valid API key/);
    const catalog = document.paths['/api/v1/collect/payments/operators/'].get;
    assert.match(catalog.description, /collect:read/);
    assert.match(catalog.description, /budget: `read`/);
    assert.match(document.paths['/api/v1/payout/operators/'].get.description, /payout:read/);
    assert.match(document.paths['/api/v1/collect/payments/{reference_or_id}/refunds'].post.description, /budget: `refund`/);
  });

  it('names the API’s objects under components.schemas and refers to them with $ref', () => {
    const names = ['Payment', 'Refund', 'Event', 'Error', 'WebhookEndpoint', 'Delivery', 'OperatorCatalog', 'PayoutOperatorCatalog', 'Account', 'CreatePaymentRequest'];
    const legacyNames = ['LegacyPayment', 'LegacyError', 'LegacyOperatorCatalog', 'LegacyCreatePaymentRequest'];
    for (const name of [...names, ...legacyNames]) assert.ok(document.components.schemas[name], `components.schemas.${name} missing`);
    const created = document.paths['/api/v1/collect/payments'].post;
    assert.deepEqual(created.responses['201'].content['application/json'].schema, { $ref: '#/components/schemas/Payment' });
    assert.deepEqual(created.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/CreatePaymentRequest' });
    assert.deepEqual(document.paths['/api/v1/collect/mobile-money/{reference}/'].get.responses['200'].content['application/json'].schema, {
      $ref: '#/components/schemas/LegacyPayment',
    });
    // Every named schema is used somewhere.
    const refs = new Set([...allNodes(document)].map((node) => node.$ref).filter(Boolean));
    for (const name of Object.keys(document.components.schemas)) assert.ok(refs.has(`#/components/schemas/${name}`), `${name} is never referred to`);
  });

  it('writes unions of literals as enums', () => {
    assert.deepEqual(document.components.schemas.Payment.properties.status, {
      type: 'string',
      enum: ['pending', 'processing', 'awaiting_otp', 'awaiting_payment', 'completed', 'failed', 'cancelled', 'expired', 'refunded'],
    });
    for (const node of allNodes(document)) {
      for (const members of [node.anyOf, node.oneOf].filter(Array.isArray)) {
        const allLiterals = members.every((member: Json) => 'const' in member || member.enum?.length === 1);
        assert.ok(!allLiterals, `a union of literals left as such: ${JSON.stringify(node)}`);
      }
      assert.ok(!('const' in node) || typeof node.const !== 'string', `const left in ${JSON.stringify(node)}`);
    }
  });

  it('lists on each error response the catalog codes of its status that the route can answer', () => {
    for (const { method, path, operation } of operationsOf(document)) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (Number(status) < 400) continue;
        const codes = [...String(response.description).matchAll(/`([a-z_]+)`/g)].map((match) => match[1] as ErrorCode);
        assert.ok(codes.length > 0, `${method} ${path} ${status} lists no code`);
        // The earlier contract answers payment_not_confirmable with 400, the catalog says 409.
        const legacyExceptions: Partial<Record<ErrorCode, number>> = path.startsWith('/api/v1/collect/mobile-money/') ? { payment_not_confirmable: 400 } : {};
        for (const code of codes) assert.equal(legacyExceptions[code] ?? errorCatalog[code]?.status, Number(status), `${method} ${path} ${status}: ${code}`);
        const schema = response.content['application/json'].schema;
        const narrowed = codeEnumsOf(schema);
        assert.ok(narrowed.length > 0, `${method} ${path} ${status} body is not an error body narrowed to its codes: ${JSON.stringify(schema)}`);
        for (const { body, codes: enumCodes } of narrowed) {
          assert.ok(body === '#/components/schemas/Error' || body === '#/components/schemas/LegacyError', `${method} ${path} ${status}: ${body}`);
          assert.deepEqual(enumCodes, codes, `${method} ${path} ${status}: the enum on code and the description list the same codes`);
        }
      }
    }
    const create = document.paths['/api/v1/collect/payments'].post.responses;
    for (const code of ['validation_error', 'invalid_phone', 'amount_too_low', 'missing_idempotency_key']) assert.match(create['400'].description, new RegExp(`\`${code}\``));
    assert.match(create['409'].description, /`duplicate_reference`/);
    // Codes tied to what a route does are left off the routes that do not do it.
    const confirm = document.paths['/api/v1/collect/payments/{reference_or_id}/confirm'].post.responses;
    assert.doesNotMatch(confirm['400'].description, /missing_idempotency_key|invalid_phone/);
    assert.match(confirm['400'].description, /`invalid_otp`/);
    assert.doesNotMatch(document.paths['/api/v1/account'].get.responses['401'].description, /insufficient_scope/);
    const legacyConfirm = document.paths['/api/v1/collect/mobile-money/confirm/'].post.responses;
    assert.ok(codeEnumsOf(legacyConfirm['400'].content['application/json'].schema)[0]!.codes.includes('payment_not_confirmable'));
    // Dashboard routes list the session's codes, not the API key's, and each only what it can answer.
    const signIn = document.paths['/api/v1/dashboard/auth/sign-in'].post.responses;
    assert.match(signIn['401'].description, /`invalid_credentials`/);
    assert.doesNotMatch(signIn['401'].description, /unauthenticated|invalid_session/);
    assert.match(signIn['429'].description, /`rate_limited`/);
    assert.equal(document.paths['/api/v1/dashboard/me'].get.responses['401'].description, 'Unauthorized. Codes: `invalid_session`.');
    // A dashboard session may call the merchant API too: its code is listed there beside the key's.
    assert.equal(document.paths['/api/v1/account'].get.responses['401'].description, 'Unauthorized. Codes: `unauthenticated`, `invalid_session`.');
    const member = document.paths['/api/v1/dashboard/merchants/{merchantId}/members/{userId}'];
    assert.equal(member.patch.responses['409'].description, 'Conflict. Codes: `last_owner`.');
    assert.equal(member.delete.responses['403'].description, 'Forbidden. Codes: `insufficient_role`.');
    assert.equal(document.paths['/api/v1/dashboard/auth/refresh'].post.responses['403'].description, 'Forbidden. Codes: `csrf_token_invalid`.');
    // The back office (/api/v1/admin) signs in with the dashboard's sessions too.
    for (const { path, operation } of operationsOf(document).filter(({ path }) => !path.startsWith('/api/v1/dashboard/') && !path.startsWith('/api/v1/admin/'))) {
      for (const response of Object.values(operation.responses as Json)) {
        // The session's codes are there (a dashboard session calls these routes too), the team's never.
        assert.doesNotMatch(String(response.description), /last_owner|csrf_token_invalid|invalid_credentials/, path);
      }
    }
    const conflict = codeEnumsOf(document.paths['/api/v1/collect/payments'].post.responses['409'].content['application/json'].schema);
    assert.deepEqual(conflict, [
      { body: '#/components/schemas/Error', codes: ['duplicate_reference', 'idempotency_request_in_progress', 'operator_call_in_progress', 'invalid_state_transition'] },
    ]);
  });

  it('makes a query parameter with a default optional to send (limit, sync, delimiter), and keeps the others as declared', () => {
    const query: Json[] = Object.values(document.paths as Json).flatMap((item: Json) =>
      Object.values(item).flatMap((operation: Json) => (operation.parameters ?? []).filter((p: Json) => p.in === 'query')),
    );
    const defaulted = query.filter((parameter) => parameter.schema?.default !== undefined);
    assert.ok(
      defaulted.some((parameter) => parameter.name === 'limit'),
      'lists have a defaulted limit',
    );
    assert.deepEqual(
      defaulted.filter((parameter) => parameter.required).map((parameter) => parameter.name),
      [],
    );
  });

  it('lists every error code of the catalog in the description', () => {
    for (const code of Object.keys(errorCatalog)) assert.ok(document.info.description.includes(`\`${code}\``), code);
  });

  it('describes each event type in its webhooks section, with the payment, refund, payout, bulk payment batch, transfer, settlement, settlement account or merchant account in data.object', () => {
    assert.deepEqual(Object.keys(document.webhooks).sort(), [...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) {
      const operation = document.webhooks[type].post;
      const body = operation.requestBody.content['application/json'].schema;
      assert.deepEqual(body.properties.type.enum, [type]);
      const payout = type.startsWith('payout.');
      const bulk = type.startsWith('bulk_payment.');
      assert.deepEqual(body.properties.event_version.enum, [payout || bulk ? '2025-01' : '2026-06'], type);
      const families: Array<[string, string]> = [
        ['payout.', 'Payout'],
        ['bulk_payment.', 'BulkPayment'],
        ['collect.refund.', 'Refund'],
        ['transfer.', 'Transfer'],
        ['settlement.', 'Settlement'],
        ['settlement_account.', 'SettlementAccount'],
        ['payment_link.', 'PaymentLink'],
        ['merchant.', 'MerchantAccount'],
      ];
      const object = families.find(([prefix]) => type.startsWith(prefix))?.[1] ?? 'Payment';
      assert.deepEqual(body.properties.data.properties.object, { $ref: `#/components/schemas/${object}` }, type);
      assert.ok(
        operation.parameters.some((p: Json) => p.name === 'X-Service-Signature' && p.required),
        type,
      );
    }
  });

  it('marks the earlier contract deprecated', () => {
    assert.equal(document.paths['/api/v1/collect/operators/'].get.deprecated, true);
  });

  it('types a client (openapi-typescript) that an integration type-checks against', async () => {
    const { sampleErrors, otherErrors } = await typeCheckAgainstDocument(document, INTEGRATION_SAMPLE);
    assert.deepEqual(otherErrors, []);
    assert.deepEqual(sampleErrors, []);
  });

  it('makes that client refuse a wrong integration, on each wrong line and only there', async () => {
    const { sampleErrors, otherErrors } = await typeCheckAgainstDocument(document, WRONG_INTEGRATION_SAMPLE);
    assert.deepEqual(otherErrors, []);
    const wrongLines = readFileSync(WRONG_INTEGRATION_SAMPLE, 'utf8')
      .split('\n')
      .flatMap((line, index) => (line.includes('// wrong:') ? [index + 1] : []));
    assert.ok(wrongLines.length >= 5);
    assert.deepEqual(
      [...new Set(sampleErrors.map((error) => error.line))].sort((a, b) => a - b),
      wrongLines,
      JSON.stringify(sampleErrors, null, 2),
    );
  });
});

describe('OpenAPI document: routes without a key', () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp(sqlite, {
      apiExtensions: (api) => {
        api.get(
          '/probe/public',
          { config: { public: true }, schema: { operationId: 'probePublic', summary: 'A public probe', response: { 200: { type: 'object' } } } },
          async () => ({}),
        );
      },
    });
  });
  after(() => t.close());

  it('marks a public route with an empty security list', async () => {
    const document = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    assert.deepEqual(document.paths['/api/v1/probe/public'].get.security, []);
    assert.match(document.paths['/api/v1/probe/public'].get.description, /No API key needed/);
    assert.equal(document.paths['/api/v1/account'].get.security, undefined, 'other routes keep the document’s security');
  });
});
