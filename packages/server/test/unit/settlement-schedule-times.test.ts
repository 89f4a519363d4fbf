/** When settlement schedules run: the next 00:00 UTC of the interval, and the run a late worker stands for. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextRunAfter, runAtOrBefore } from '../../src/core/settlements/settlement-schedule-times.js';
import type { SettlementInterval } from '../../src/core/settlements/settlement-schedule.js';

const next = (interval: SettlementInterval, anchor: number | null, after: string) => nextRunAfter(interval, anchor, new Date(after))?.toISOString() ?? null;
const standsFor = (interval: SettlementInterval, anchor: number | null, at: string) => runAtOrBefore(interval, anchor, new Date(at))?.toISOString() ?? null;

describe('nextRunAfter', () => {
  it('is null when off', () => {
    assert.equal(next('off', null, '2026-11-23T10:00:00.000Z'), null);
  });

  it('runs daily at the next midnight UTC, strictly after: a run at midnight schedules the following one', () => {
    assert.equal(next('daily', null, '2026-11-23T10:00:00.000Z'), '2026-11-24T00:00:00.000Z');
    assert.equal(next('daily', null, '2026-11-23T00:00:00.000Z'), '2026-11-24T00:00:00.000Z');
    assert.equal(next('daily', null, '2026-11-23T23:59:59.999Z'), '2026-11-24T00:00:00.000Z');
    assert.equal(next('daily', null, '2026-12-31T08:00:00.000Z'), '2027-01-01T00:00:00.000Z');
    assert.equal(next('daily', null, '2028-02-28T08:00:00.000Z'), '2028-02-29T00:00:00.000Z', 'a leap day is a day');
  });

  it('runs weekly on the anchor’s ISO weekday (1 = Monday), wrapping past Sunday', () => {
    // 2026-11-23 is a Monday.
    assert.equal(next('weekly', 1, '2026-11-22T12:00:00.000Z'), '2026-11-23T00:00:00.000Z', 'Sunday -> the next day, Monday');
    assert.equal(next('weekly', 1, '2026-11-23T00:00:00.000Z'), '2026-11-30T00:00:00.000Z', 'on Monday midnight itself -> a week later');
    assert.equal(next('weekly', 1, '2026-11-23T09:00:00.000Z'), '2026-11-30T00:00:00.000Z');
    assert.equal(next('weekly', 7, '2026-11-23T09:00:00.000Z'), '2026-11-29T00:00:00.000Z', 'Sunday of the same ISO week');
    assert.equal(next('weekly', 3, '2026-11-26T09:00:00.000Z'), '2026-12-02T00:00:00.000Z', 'Thursday -> next Wednesday');
    assert.equal(next('weekly', 5, '2026-12-30T09:00:00.000Z'), '2027-01-01T00:00:00.000Z', 'across the new year');
    assert.equal(next('weekly', null, '2026-11-24T09:00:00.000Z'), '2026-11-30T00:00:00.000Z', 'no anchor is Monday');
  });

  it('runs monthly on the anchor day, this month if still ahead, else the next, across years and short months', () => {
    assert.equal(next('monthly', 15, '2026-11-10T09:00:00.000Z'), '2026-11-15T00:00:00.000Z');
    assert.equal(next('monthly', 15, '2026-11-15T00:00:00.000Z'), '2026-12-15T00:00:00.000Z', 'on the day’s midnight itself -> next month');
    assert.equal(next('monthly', 15, '2026-11-20T09:00:00.000Z'), '2026-12-15T00:00:00.000Z');
    assert.equal(next('monthly', 28, '2026-12-31T09:00:00.000Z'), '2027-01-28T00:00:00.000Z', 'December into January');
    assert.equal(next('monthly', 28, '2027-01-31T09:00:00.000Z'), '2027-02-28T00:00:00.000Z', 'into February');
    assert.equal(next('monthly', 1, '2027-02-28T23:00:00.000Z'), '2027-03-01T00:00:00.000Z', 'from a month’s last day');
    assert.equal(next('monthly', null, '2026-11-02T09:00:00.000Z'), '2026-12-01T00:00:00.000Z', 'no anchor is the 1st');
  });
});

describe('runAtOrBefore', () => {
  it('is the run a worker at that instant stands for: the latest one at or before it', () => {
    assert.equal(standsFor('off', null, '2026-11-23T10:00:00.000Z'), null);
    assert.equal(standsFor('daily', null, '2026-11-23T00:00:00.000Z'), '2026-11-23T00:00:00.000Z');
    assert.equal(standsFor('daily', null, '2026-11-23T23:59:00.000Z'), '2026-11-23T00:00:00.000Z');
    assert.equal(standsFor('weekly', 1, '2026-11-23T00:05:00.000Z'), '2026-11-23T00:00:00.000Z');
    assert.equal(standsFor('weekly', 1, '2026-11-29T22:00:00.000Z'), '2026-11-23T00:00:00.000Z', 'Sunday stands for the Monday before');
    assert.equal(standsFor('weekly', 5, '2027-01-02T10:00:00.000Z'), '2027-01-01T00:00:00.000Z');
    assert.equal(standsFor('weekly', 6, '2027-01-01T10:00:00.000Z'), '2026-12-26T00:00:00.000Z', 'back across the new year');
    assert.equal(standsFor('monthly', 10, '2026-11-10T00:00:00.000Z'), '2026-11-10T00:00:00.000Z');
    assert.equal(standsFor('monthly', 10, '2026-11-09T23:00:00.000Z'), '2026-10-10T00:00:00.000Z');
    assert.equal(standsFor('monthly', 28, '2027-01-05T00:00:00.000Z'), '2026-12-28T00:00:00.000Z', 'January back into December');
  });

  it('and the next run after it is the next run after the instant (a late run schedules the next future one)', () => {
    for (const [interval, anchor] of [
      ['daily', null],
      ['weekly', 3],
      ['monthly', 28],
    ] as const) {
      for (const at of ['2026-11-23T00:00:00.000Z', '2026-12-31T23:59:59.000Z', '2027-02-14T12:00:00.000Z']) {
        const slot = runAtOrBefore(interval, anchor, new Date(at))!;
        assert.ok(slot.getTime() <= Date.parse(at), `${interval} ${at}`);
        assert.equal(nextRunAfter(interval, anchor, slot)!.toISOString(), nextRunAfter(interval, anchor, new Date(at))!.toISOString(), `${interval} ${at}`);
        assert.ok(nextRunAfter(interval, anchor, slot)!.getTime() > Date.parse(at), `${interval} ${at}`);
      }
    }
  });
});
