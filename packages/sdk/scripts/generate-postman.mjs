// Writes examples/akwe.postman_collection.json: a Postman collection (format v2.1, which Bruno and
// Insomnia import too) made from the OpenAPI document the server serves. Two folders: `Tour`, the
// requests of collection-tour.mjs in their order (each asserting its status and keeping the ids the
// next ones need in collection variables), which `newman run … --folder Tour` sends from start to
// end; and `Not in the run`, a folder per tag with every other operation. A request: method,
// `{{baseUrl}}/api/v1/…` with its path and query parameters, the request example as body (or the
// tour's), bearer `{{apiKey}}` (`{{dashboardToken}}` for the dashboard's routes, none for public
// ones) and a fresh `Idempotency-Key` where the API asks for one.
// Run with tsx: `npm run generate-postman -w @akwe/sdk`. test/postman-up-to-date.test.ts calls
// generatePostmanCollection() and fails when the checked-in file differs.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SKIPPED_DESCRIPTION, SKIPPED_FOLDER, TOUR, TOUR_FOLDER } from './collection-tour.mjs';
import { fetchServedDocument } from './generate-types.mjs';

export const POSTMAN_COLLECTION_PATH = fileURLToPath(new URL('../../../examples/akwe.postman_collection.json', import.meta.url));

const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
export const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function bearer(variable) {
  return { type: 'bearer', bearer: [{ key: 'token', value: `{{${variable}}}`, type: 'string' }] };
}

/** Undefined: inherit the collection's API key. */
function authFor(operation) {
  if (operation.security === undefined) return undefined;
  if (operation.security.length === 0) return { type: 'noauth' };
  if (operation.security.some((requirement) => 'dashboardSession' in requirement)) return bearer('dashboardToken');
  return undefined;
}

export function exampleOf(media) {
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  return first?.value;
}

function bodyFor(operation, step) {
  const content = operation.requestBody?.content;
  if (content === undefined) return { body: undefined, contentType: undefined };
  if (content['application/json'] !== undefined) {
    const example = step?.body ?? exampleOf(content['application/json']);
    return { body: { mode: 'raw', raw: JSON.stringify(example ?? {}, null, 2), options: { raw: { language: 'json' } } }, contentType: 'application/json' };
  }
  // Other media (the bulk CSV import): the first one, its example as raw text.
  const [contentType, media] = Object.entries(content)[0];
  const example = exampleOf(media);
  return { body: { mode: 'raw', raw: typeof example === 'string' ? example : '' }, contentType };
}

/** The tour step's checks: the status it expects, then the values it keeps for the next requests. */
function testScript(step) {
  const lines = [`pm.test('answers ${step.expect}', function () {`, `  pm.response.to.have.status(${step.expect});`, '});'];
  const saved = Object.entries(step.save ?? {});
  if (saved.length > 0) {
    lines.push('const body = pm.response.json();');
    for (const [variable, expression] of saved) lines.push(`pm.collectionVariables.set('${variable}', ${expression});`);
  }
  return [{ listen: 'test', script: { type: 'text/javascript', exec: lines } }];
}

/** The query string's entries: the tour's values sent, the other parameters listed but off. */
function queryFor(parameters, step) {
  return parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => {
      const value = step?.query?.[parameter.name];
      const entry = {
        key: parameter.name,
        value: value ?? (parameter.schema?.default === undefined ? '' : String(parameter.schema.default)),
        description: parameter.description,
      };
      if (value === undefined) entry.disabled = true;
      return entry;
    });
}

function requestFor(path, method, operation, step) {
  const parameters = operation.parameters ?? [];
  const segments = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replace(/^\{(.+)\}$/, ':$1'));
  // Keep a trailing slash: several routes of the earlier contracts are declared with one.
  if (path.endsWith('/')) segments.push('');
  const query = queryFor(parameters, step);
  const variable = parameters
    .filter((parameter) => parameter.in === 'path')
    .map((parameter) => ({ key: parameter.name, value: step?.path?.[parameter.name] ?? '', description: parameter.description }));
  const { body, contentType } = bodyFor(operation, step);
  const header = [];
  if (contentType !== undefined) header.push({ key: 'Content-Type', value: contentType });
  if (parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key')) {
    // Postman's dynamic variable: a new UUID each send. Resend an exact copy to see a replay.
    header.push({ key: 'Idempotency-Key', value: '{{$guid}}' });
  }
  const sent = query.filter((entry) => !entry.disabled);
  const queryText = sent.length === 0 ? '' : '?' + sent.map((entry) => `${entry.key}=${entry.value}`).join('&');
  const request = {
    method: method.toUpperCase(),
    header,
    url: { raw: `{{baseUrl}}/${segments.join('/')}${queryText}`, host: ['{{baseUrl}}'], path: segments },
    description: operation.description,
  };
  if (query.length > 0) request.url.query = query;
  if (variable.length > 0) request.url.variable = variable;
  if (body !== undefined) request.body = body;
  const auth = authFor(operation);
  if (auth !== undefined) request.auth = auth;
  const item = { name: step?.name ?? operation.summary ?? operation.operationId, request };
  if (step !== undefined) item.event = testScript(step);
  return item;
}

/** Every operation of the document by operationId, with its path, method and tag. */
export function operationsById(openapi) {
  const operations = new Map();
  for (const [path, pathItem] of Object.entries(openapi.paths)) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (operation === undefined) continue;
      if (operations.has(operation.operationId)) throw new Error(`two operations are named ${operation.operationId}`);
      operations.set(operation.operationId, { path, method, operation, tag: operation.tags?.[0] ?? 'other' });
    }
  }
  for (const step of TOUR) if (!operations.has(step.op)) throw new Error(`the tour sends ${step.op}, which the document does not have`);
  return operations;
}

/** The collection for a document, as the JSON text the repository keeps (stable: no generated ids). */
export async function generatePostmanCollection(document) {
  const openapi = document ?? (await fetchServedDocument());
  const operations = operationsById(openapi);
  const toured = new Set(TOUR.map((step) => step.op));
  const tour = TOUR.map((step) => {
    const { path, method, operation } = operations.get(step.op);
    return requestFor(path, method, operation, step);
  });
  const folders = new Map((openapi.tags ?? []).map((tag) => [tag.name, { name: tag.name, description: tag.description, item: [] }]));
  for (const [operationId, { path, method, operation, tag }] of operations) {
    if (toured.has(operationId)) continue;
    if (!folders.has(tag)) folders.set(tag, { name: tag, item: [] });
    folders.get(tag).item.push(requestFor(path, method, operation));
  }
  const collection = {
    info: {
      name: `${openapi.info.title} ${openapi.info.version}`,
      description:
        'Generated from the OpenAPI document the Akwe server serves (packages/sdk/scripts/generate-postman.mjs). Set apiKey to an ak_test_… key ' +
        'of a merchant whose KYC is validated, dashboardEmail and dashboardPassword to a dashboard user whose address is verified, then run ' +
        'the Tour folder: `newman run akwe.postman_collection.json --folder Tour --env-var apiKey=… --env-var dashboardEmail=… --env-var dashboardPassword=…`.',
      schema: POSTMAN_SCHEMA,
    },
    auth: bearer('apiKey'),
    variable: [
      { key: 'baseUrl', value: openapi.servers?.[0]?.url ?? 'http://localhost:8080' },
      { key: 'apiKey', value: '' },
      { key: 'dashboardEmail', value: '' },
      { key: 'dashboardPassword', value: '' },
      { key: 'dashboardToken', value: '' },
    ],
    item: [
      { name: TOUR_FOLDER, description: 'Every request in order: ids come from the answers before them, each asserts its status.', item: tour },
      { name: SKIPPED_FOLDER, description: SKIPPED_DESCRIPTION, item: [...folders.values()].filter((folder) => folder.item.length > 0) },
    ],
  };
  return JSON.stringify(collection, null, 2) + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(POSTMAN_COLLECTION_PATH, await generatePostmanCollection());
  console.log(`wrote ${POSTMAN_COLLECTION_PATH}`);
}
