import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Value } from 'typebox/value';
import { sampleSubject, subjectKindOf } from '../../src/core/dashboard/test-event-samples.js';
import { EVENT_TYPES } from '../../src/core/events/event-types.js';
import { newId } from '../../src/core/shared/ids.js';
import { eventFamilies, renderDelivery } from '../../src/http/contracts/index.js';
import { CURRENT_API_VERSION } from '../../src/http/contracts/collect-2026-06/operator-catalog-mapper.js';

describe('test event samples', () => {
  it('has a sample for every event type, which renders as a valid object of its family, marked as a test', () => {
    const scope = { merchantId: newId(), environment: 'test' as const };
    for (const type of EVENT_TYPES) {
      assert.ok(subjectKindOf(type), type);
      const now = '2026-11-26T10:00:00.000Z';
      const event = { id: newId(), merchantId: scope.merchantId, environment: scope.environment, type, createdAt: now, subject: sampleSubject(type, scope, now, newId) };
      const rendered = JSON.parse(renderDelivery(event, CURRENT_API_VERSION, { publicUrl: 'http://localhost:8080', secrets: ['whsec_x'], now: new Date(now) }).body);
      assert.equal(rendered.type, type);
      const family = eventFamilies().find(({ prefix }) => type.startsWith(prefix))!;
      const object: { id: string } = rendered.data.object;
      assert.ok(Value.Check(family.object, object), `${type}: ${JSON.stringify([...Value.Errors(family.object, object)].slice(0, 3))}`);
      assert.match(String((object as { id: unknown }).id), /^00000000-7e57-/, type);
      assert.match(JSON.stringify(object), /akwe_test_event|Akwe test event/, type);
    }
  });
});
