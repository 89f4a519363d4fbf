import { Type } from 'typebox';
import { DEFAULT_SCHEDULE_MINIMUM_MINOR, settlementIntervals } from '../../core/settlements/settlement-schedule.js';
import { inCentimes } from '../shared/money-descriptions.js';
import { listOf } from '../shared/pagination.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);
const MAX_MINOR = 100_000_000_000;

const intervalDescription =
  '`off` (no automatic settlement), `daily` (every day at 00:00 UTC), `weekly` (at 00:00 UTC on the `anchor` weekday), `monthly` (at 00:00 UTC on the `anchor` day of the month).';
const anchorDescription = 'Weekly: the ISO weekday, 1 = Monday to 7 = Sunday (default 1). Monthly: the day of the month, 1 to 28 (default 1). Not allowed with `off` or `daily`.';

/** PUT /settlement-schedules/{currency}: the whole schedule; a field left out takes its default. */
export const PutSettlementScheduleBody = Type.Object(
  {
    interval: Type.Enum(settlementIntervals, { description: intervalDescription }),
    anchor: Type.Optional(Type.Integer({ minimum: 1, maximum: 28, description: anchorDescription })),
    settlement_account: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'The settlement account’s id (same environment and currency). Required unless `interval` is `off`; it may still be cooling.',
      }),
    ),
    minimum_minor: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_MINOR,
        description: inCentimes(`A run settles only if at least this would leave the balance; default ${DEFAULT_SCHEDULE_MINIMUM_MINOR} (1 000 FCFA).`),
      }),
    ),
    reserve_minor: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_MINOR, description: inCentimes('Kept back in the available balance by every run; default 0.') })),
  },
  {
    additionalProperties: false,
    title: 'PutSettlementScheduleRequest',
    examples: [{ interval: 'weekly', anchor: 5, settlement_account: '0193a812-4c5d-7e6f-8091-a2b3c4d5e6f7', minimum_minor: 500000, reserve_minor: 2000000 }],
  },
);

const scheduleExample = {
  object: 'settlement_schedule',
  currency: 'XOF',
  interval: 'weekly',
  anchor: 5,
  settlement_account: '0193a812-4c5d-7e6f-8091-a2b3c4d5e6f7',
  minimum_minor: 500000,
  reserve_minor: 2000000,
  next_run_at: '2026-06-26T00:00:00.000Z',
  last_run_at: '2026-06-19T00:00:41.000Z',
  last_outcome: 'settled',
  last_settlement: '0193a901-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  environment: 'live',
  updated_at: '2026-06-17T09:12:00.000Z',
} as const;

export const SettlementScheduleObject = Type.Object(
  {
    object: Type.Literal('settlement_schedule'),
    currency: Type.String(),
    interval: Type.Enum(settlementIntervals, { description: intervalDescription }),
    anchor: Type.Union([Type.Integer(), Type.Null()], { description: 'Weekly: ISO weekday (1 = Monday); monthly: day of the month (1 to 28); null otherwise.' }),
    settlement_account: Type.Union([Type.String(), Type.Null()], { description: 'The settlement account’s id; null when none was set.' }),
    minimum_minor: Type.Integer({ description: inCentimes('A run settles only if at least this would leave the balance.') }),
    reserve_minor: Type.Integer({ description: inCentimes('Kept back in the available balance by every run.') }),
    next_run_at: Type.Union([Type.String(), Type.Null()], { description: 'The next run (00:00 UTC); null when off. While a run is under way, when its claim ends.' }),
    last_run_at: NullableString,
    last_outcome: Type.Union([Type.String(), Type.Null()], {
      description:
        'What the last run did: `settled`, `below_minimum` (available less reserve under the minimum), `account_cooling`, `account_removed`, or the error code that stopped it (`kyc_required`, `account_inactive`, `insufficient_balance`, ...).',
    }),
    last_settlement: Type.Union([Type.String(), Type.Null()], { description: 'The settlement the last run made (GET /api/v1/settlements/{id}); null when it made none.' }),
    environment: Type.String(),
    updated_at: Type.Union([Type.String(), Type.Null()], { description: 'When the schedule was last set; null for a currency whose schedule was never set.' }),
  },
  {
    title: 'SettlementSchedule',
    description: 'When your available balance in one currency is settled by itself, to which settlement account, keeping what back.',
    examples: [scheduleExample],
  },
);

export const SettlementScheduleParams = Type.Object({
  currency: Type.String({ minLength: 1, maxLength: 16, description: 'A currency of your balance in the key’s environment (XOF).' }),
});

export const SettlementScheduleList = listOf(SettlementScheduleObject, {
  title: 'SettlementScheduleList',
  description: 'A schedule per currency of your balance in the key’s environment (never set: `off`), by currency; one page, has_more always false.',
});
