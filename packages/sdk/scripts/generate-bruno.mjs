// Writes examples/bruno/: a Bruno collection (the .bru text format, https://docs.usebruno.com) made
// from the OpenAPI document the server serves, beside the Postman one and from the same reading of
// it: bruno.json, collection.bru (bearer {{apiKey}} for every request that inherits it),
// environments/Local.bru, then two folders: tour/, the requests of collection-tour.mjs in their
// order (`seq`), each with a test on its status and a post-response script keeping the ids the next
// ones need (bru.setVar), which `bru run tour --env Local` sends from start to end; and
// not-in-the-run/, a folder per tag holding folder.bru and one <operationId>.bru per other
// operation. A request: method, `{{baseUrl}}/api/v1/…` with `:name` path parameters, the query
// parameters (off until ticked, unless the tour sets them), the request example as body (or the
// tour's), a fresh Idempotency-Key where the API asks for one, and the operation's description as docs.
// Run with tsx: `npm run generate-bruno -w @akwe/sdk`. test/bruno-up-to-date.test.ts calls
// generateBrunoCollection() and fails when the checked-in folder differs.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SKIPPED_DESCRIPTION, SKIPPED_FOLDER, TOUR, TOUR_FOLDER } from './collection-tour.mjs';
import { exampleOf, operationsById } from './generate-postman.mjs';
import { fetchServedDocument } from './generate-types.mjs';

export const BRUNO_COLLECTION_DIR = fileURLToPath(new URL('../../../examples/bruno/', import.meta.url));

/** Two spaces before every line, blank ones included, as Bruno writes its text blocks. */
function indent(text) {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => `  ${line}`)
    .join('\n');
}

/** One line per value: a line break would end the entry early. */
function oneLine(value) {
  return String(value ?? '')
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim();
}

/** Keys with `:`, quotes, braces or spaces are quoted, as Bruno does. */
function key(name) {
  return /[:"{} ]/.test(name) ? `"${name.replaceAll('"', '\\"')}"` : name;
}

function dictionary(name, entries) {
  if (entries.length === 0) return '';
  return `${name} {\n${entries.map(([entryKey, value, enabled = true]) => `  ${enabled ? '' : '~'}${key(entryKey)}: ${oneLine(value)}`).join('\n')}\n}\n\n`;
}

function textBlock(name, text) {
  return text ? `${name} {\n${indent(text)}\n}\n\n` : '';
}

/** A folder name from a tag: letters, digits and dashes. */
export function folderName(tag) {
  return (
    tag
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'other'
  );
}

/** `inherit` takes the collection's bearer {{apiKey}}; public routes send none; the dashboard's its session token. */
function authFor(operation) {
  if (operation.security === undefined) return { mode: 'inherit', block: '' };
  if (operation.security.length === 0) return { mode: 'none', block: '' };
  if (operation.security.some((requirement) => 'dashboardSession' in requirement)) return { mode: 'bearer', block: dictionary('auth:bearer', [['token', '{{dashboardToken}}']]) };
  return { mode: 'inherit', block: '' };
}

function bodyFor(operation, step) {
  const content = operation.requestBody?.content;
  if (content === undefined) return { mode: 'none', block: '', contentType: undefined };
  if (content['application/json'] !== undefined) {
    const example = step?.body ?? exampleOf(content['application/json']);
    return { mode: 'json', block: textBlock('body:json', JSON.stringify(example ?? {}, null, 2)), contentType: undefined };
  }
  // Other media (the bulk CSV import): the first one, its example as text.
  const [contentType, media] = Object.entries(content)[0];
  const example = exampleOf(media);
  return { mode: 'text', block: textBlock('body:text', typeof example === 'string' ? example : ''), contentType };
}

/** The tour step's checks: a test on the status, and a script keeping values for the next requests. */
function stepBlocks(step) {
  if (step === undefined) return '';
  const saved = Object.entries(step.save ?? {});
  const script = saved.length === 0 ? '' : ['const body = res.getBody();', ...saved.map(([variable, expression]) => `bru.setVar('${variable}', ${expression});`)].join('\n');
  return (
    textBlock('script:post-response', script) +
    textBlock('tests', [`test('answers ${step.expect}', function () {`, `  expect(res.getStatus()).to.equal(${step.expect});`, '});'].join('\n'))
  );
}

function requestFile(path, method, operation, seq, step) {
  const parameters = operation.parameters ?? [];
  const url = `{{baseUrl}}${path.replace(/\{([^}]+)\}/g, ':$1')}`;
  const auth = authFor(operation);
  const body = bodyFor(operation, step);
  const query = parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => {
      const value = step?.query?.[parameter.name];
      return [parameter.name, value ?? parameter.schema?.default ?? '', value !== undefined];
    });
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path').map((parameter) => [parameter.name, step?.path?.[parameter.name] ?? '']);
  const headers = [];
  if (body.contentType !== undefined) headers.push(['Content-Type', body.contentType]);
  // Bruno's dynamic variable: a new UUID each send. Set a fixed value to see a replay.
  if (parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key')) headers.push(['Idempotency-Key', '{{$guid}}']);
  return (
    dictionary('meta', [
      ['name', step?.name ?? operation.summary ?? operation.operationId],
      ['type', 'http'],
      ['seq', seq],
    ]) +
    dictionary(method, [
      ['url', url],
      ['body', body.mode],
      ['auth', auth.mode],
    ]) +
    dictionary('params:query', query) +
    dictionary('params:path', pathParameters) +
    dictionary('headers', headers) +
    auth.block +
    body.block +
    stepBlocks(step) +
    textBlock('docs', operation.description ?? '')
  ).replace(/\n\n$/, '\n');
}

/**
 * The collection for a document: a map from each file's path inside examples/bruno/ to its text
 * (stable: no generated ids, operations in document order).
 */
export async function generateBrunoCollection(document) {
  const openapi = document ?? (await fetchServedDocument());
  const tags = (openapi.tags ?? []).map((tag) => tag.name);
  const descriptions = new Map((openapi.tags ?? []).map((tag) => [tag.name, tag.description]));
  const operations = operationsById(openapi);
  const toured = new Set(TOUR.map((step) => step.op));
  const byTag = new Map(tags.map((tag) => [tag, []]));
  for (const [operationId, { path, method, operation, tag }] of operations) {
    if (toured.has(operationId)) continue;
    if (!byTag.has(tag)) byTag.set(tag, []);
    byTag.get(tag).push({ path, method, operation });
  }
  const title = `${openapi.info.title} ${openapi.info.version}`;
  const files = new Map();
  files.set('bruno.json', JSON.stringify({ version: '1', name: title, type: 'collection', ignore: ['node_modules', '.git'] }, null, 2) + '\n');
  files.set(
    'collection.bru',
    dictionary('auth', [['mode', 'bearer']]) +
      dictionary('auth:bearer', [['token', '{{apiKey}}']]) +
      textBlock(
        'docs',
        'Generated from the OpenAPI document the Akwe server serves (packages/sdk/scripts/generate-bruno.mjs); do not edit by hand.\n' +
          'Choose the Local environment and set apiKey to an ak_test_… key of a merchant whose KYC is validated, dashboardEmail and\n' +
          'dashboardPassword to a dashboard user whose address is verified, then run the tour folder:\n' +
          'bru run tour --env Local --env-var apiKey=… --env-var dashboardEmail=… --env-var dashboardPassword=…',
      ).replace(/\n\n$/, '\n'),
  );
  const baseUrl = oneLine(openapi.servers?.[0]?.url ?? 'http://localhost:8080').replace(/\/api\/v1\/?$/, '');
  files.set('environments/Local.bru', `vars {\n  baseUrl: ${baseUrl}\n}\nvars:secret [\n  apiKey,\n  dashboardEmail,\n  dashboardPassword,\n  dashboardToken\n]\n`);
  const tourFolder = folderName(TOUR_FOLDER);
  files.set(
    `${tourFolder}/folder.bru`,
    (
      dictionary('meta', [
        ['name', TOUR_FOLDER],
        ['seq', 1],
      ]) + textBlock('docs', 'Every request in order: ids come from the answers before them, each tests its status.')
    ).replace(/\n\n$/, '\n'),
  );
  TOUR.forEach((step, index) => {
    const { path, method, operation } = operations.get(step.op);
    const name = `${tourFolder}/${String(index + 1).padStart(3, '0')}-${step.name === undefined ? step.op : folderName(step.name)}.bru`;
    files.set(name, requestFile(path, method, operation, index + 1, step));
  });
  const skipped = folderName(SKIPPED_FOLDER);
  files.set(
    `${skipped}/folder.bru`,
    (
      dictionary('meta', [
        ['name', SKIPPED_FOLDER],
        ['seq', 2],
      ]) + textBlock('docs', SKIPPED_DESCRIPTION)
    ).replace(/\n\n$/, '\n'),
  );
  let folderSeq = 0;
  const folders = new Set();
  for (const [tag, operations] of byTag) {
    if (operations.length === 0) continue;
    const folder = `${skipped}/${folderName(tag)}`;
    if (folders.has(folder)) throw new Error(`two tags make the folder ${folder}`);
    folders.add(folder);
    files.set(
      `${folder}/folder.bru`,
      (
        dictionary('meta', [
          ['name', tag],
          ['seq', ++folderSeq],
        ]) + textBlock('docs', descriptions.get(tag) ?? '')
      ).replace(/\n\n$/, '\n'),
    );
    operations.forEach(({ path, method, operation }, index) => {
      const name = `${folder}/${operation.operationId ?? `${method}-${folderName(path)}`}.bru`;
      if (files.has(name)) throw new Error(`two operations make the file ${name}`);
      files.set(name, requestFile(path, method, operation, index + 1));
    });
  }
  return files;
}

/** Every file under a folder, as paths relative to it. */
export function filesUnder(folder, prefix = '') {
  let found = [];
  for (const entry of readdirSync(join(folder, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    found = entry.isDirectory() ? found.concat(filesUnder(folder, relative)) : found.concat(relative);
  }
  return found.sort();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = await generateBrunoCollection();
  rmSync(BRUNO_COLLECTION_DIR, { recursive: true, force: true });
  for (const [name, text] of files) {
    mkdirSync(dirname(join(BRUNO_COLLECTION_DIR, name)), { recursive: true });
    writeFileSync(join(BRUNO_COLLECTION_DIR, name), text);
  }
  console.log(`wrote ${files.size} files under ${BRUNO_COLLECTION_DIR}`);
}
