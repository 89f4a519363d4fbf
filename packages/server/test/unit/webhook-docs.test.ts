/** docs/webhooks.md lists exactly the event types the server emits (the event catalogue). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVENT_TYPES } from '../../src/core/events/event-types.js';
import { firstColumnCodes, readDoc, sectionOf } from '../support/markdown-sections.js';

const documented = () => firstColumnCodes(sectionOf(readDoc('docs/webhooks.md'), '## Event types'));

describe('docs/webhooks.md event types', () => {
  it('reads the table of the section, not the rest of the page', () => {
    const page = '# T\n## Event types\n| Type | x |\n|---|---|\n| `a.b` | y |\n## Next\n| `c.d` | z |\n';
    assert.deepEqual(firstColumnCodes(sectionOf(page, '## Event types')), ['a.b']);
  });

  it('does not end a section at a comment inside a code block', () => {
    const page = '## Tour\n```sh\n# a comment\ncurl x\n```\n## Next\n';
    assert.match(sectionOf(page, '## Tour'), /curl x/);
  });

  it('documents every event type the server emits', () => {
    const missing = EVENT_TYPES.filter((type) => !documented().includes(type));
    assert.deepEqual(missing, [], 'add these to the "Event types" table of docs/webhooks.md');
  });

  it('documents no event type the server does not emit, and each one once', () => {
    const listed = documented();
    assert.deepEqual(
      listed.filter((type) => !EVENT_TYPES.includes(type)),
      [],
      'remove these from docs/webhooks.md or emit them',
    );
    assert.equal(new Set(listed).size, listed.length, 'a type is listed twice');
  });
});
