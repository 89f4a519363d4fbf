/** A schema's title is its name in the document: one title, one schema, or the app does not start. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { installOpenApi } from '../../src/http/openapi/openapi.js';

async function appWith(first: ReturnType<typeof Type.Object>, second: ReturnType<typeof Type.Object>) {
  const app = Fastify();
  await installOpenApi(app, 'http://localhost:8080');
  app.get('/first', { schema: { operationId: 'getFirst', response: { 200: first } } }, async () => ({}));
  app.get('/second', { schema: { operationId: 'getSecond', response: { 200: second } } }, async () => ({}));
  return app;
}

describe('named schemas in the OpenAPI document', () => {
  it('refers to one titled schema used by two routes through one component', async () => {
    const Thing = Type.Object({ name: Type.String() }, { title: 'Thing' });
    const app = await appWith(Thing, Thing);
    await app.ready();
    const document = app.swagger() as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>;
      components: { schemas: Record<string, unknown> };
    };
    assert.deepEqual(document.components.schemas.Thing, { type: 'object', required: ['name'], properties: { name: { type: 'string' } }, title: 'Thing' });
    for (const path of ['/first', '/second'])
      assert.deepEqual(document.paths[path]!.get.responses['200']!.content['application/json']!.schema, { $ref: '#/components/schemas/Thing' });
    await app.close();
  });

  it('keeps a schema’s examples in its component when one route answers it whole and another nests it', async () => {
    const Thing = Type.Object({ name: Type.String() }, { title: 'Thing', examples: [{ name: 'lamp' }] });
    const app = await appWith(Thing, Type.Object({ things: Type.Array(Thing) }));
    await app.ready();
    const document = app.swagger() as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, { example?: unknown }> }> } }>;
      components: { schemas: Record<string, { examples?: unknown[] }> };
    };
    assert.deepEqual(document.components.schemas.Thing!.examples, [{ name: 'lamp' }]);
    assert.deepEqual(document.paths['/first']!.get.responses['200']!.content['application/json']!.example, { name: 'lamp' });
    assert.deepEqual(document.paths['/second']!.get.responses['200']!.content['application/json']!.example, { things: [{ name: 'lamp' }] });
    await app.close();
  });

  it('refuses to start when two different schemas share a title', async () => {
    const app = await appWith(Type.Object({ name: Type.String() }, { title: 'Thing' }), Type.Object({ size: Type.Integer() }, { title: 'Thing' }));
    await assert.rejects(async () => app.ready(), /two different schemas are titled "Thing"/);
    await app.close().catch(() => undefined);
  });
});
