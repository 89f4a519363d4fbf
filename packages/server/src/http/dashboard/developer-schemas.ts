import { Type } from 'typebox';
import { scopes } from '../../core/merchants/scopes.js';
import { defaultPageLimit, maxPageLimit } from '../../core/shared/pagination.js';

// Example values (docs/dashboard.md "Developers"): clearly fake keys and ids.
const MERCHANT_ID = '0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f';
const KEY_ID = '0193b2e4-1a2b-7c3d-8e4f-5a6b7c8d9e0f';
const USER_ID = '0193b1c2-3d4e-7f50-8162-7a8b9c0d1e2f';
const keyExample = {
  object: 'api_key',
  id: KEY_ID,
  environment: 'test',
  prefix: 'ak_test_Xy3k',
  last4: 'Q9zA',
  scopes: ['collect:read', 'collect:write'],
  created_at: '2026-06-02T08:15:00.000Z',
  revoked_at: null,
  last_used_at: '2026-06-02T09:41:00.000Z',
  created_by: USER_ID,
  scopes_beyond_creator_role: [],
};

const Id = Type.String({ minLength: 1, maxLength: 64 });
export const KeyParams = Type.Object({ merchantId: Id, keyId: Id });
export const EndpointParams = Type.Object({ merchantId: Id, id: Id });
export const EventParams = Type.Object({ merchantId: Id, eventId: Id });

export const CreateKeyBody = Type.Object(
  {
    scopes: Type.Optional(
      Type.Array(Type.Enum(scopes), {
        maxItems: scopes.length,
        description: "What the key may do, within your role's scopes; empty or absent: your role's scopes (in live before KYC validation, without the money-out ones).",
      }),
    ),
  },
  { additionalProperties: false, title: 'DashboardCreateApiKeyRequest', examples: [{ scopes: ['collect:read', 'collect:write'] }, {}] },
);

const keyFields = {
  object: Type.Literal('api_key'),
  id: Type.String(),
  environment: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it.' }),
  last4: Type.String({ description: 'The last four characters of the key.' }),
  scopes: Type.Array(Type.String(), { description: 'Empty: every scope (only a key made by the `akwe keys create` command can be so).' }),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the key last authenticated a request, to the minute (written at most once a minute); null: never used.',
  }),
  created_by: Type.Union([Type.String(), Type.Null()], { description: 'The user whose dashboard session made the key; null: made by the `akwe` command line.' }),
  scopes_beyond_creator_role: Type.Array(Type.String(), {
    description:
      'What the key holds beyond its creator’s current role (the role changed, or the creator left): revoke it and make another. Empty for keys within the role, revoked keys and command-line keys.',
  }),
};
export const KeyObject = Type.Object(keyFields, { title: 'DashboardApiKey', examples: [keyExample] });
export const KeyList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(KeyObject) },
  { title: 'DashboardApiKeyList', examples: [{ object: 'list', data: [keyExample] }] },
);
export const CreatedKey = Type.Object(
  { ...keyFields, secret: Type.String({ description: 'The whole key: shown in this answer only, never again (only its hash is stored).' }) },
  {
    title: 'DashboardCreatedApiKey',
    examples: [{ ...keyExample, last_used_at: null, secret: 'ak_test_EXAMPLE-not-a-real-key-EXAMPLE-not-a-real-Q9zA' }],
  },
);

export const DashboardResendBody = Type.Union([
  Type.Object(
    { endpoint_id: Type.Optional(Type.String({ maxLength: 64, description: 'Only to this endpoint; absent: to every destination of the event.' })) },
    { additionalProperties: false, title: 'DashboardResendEventRequest', examples: [{ endpoint_id: '0193b3a1-7c2d-7e3f-8a4b-5c6d7e8f9a0b' }, {}] },
  ),
  Type.Null(),
]);

export const TestEventBody = Type.Union([
  Type.Object(
    {
      type: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description:
            'An event type the endpoint receives (`collect.payment.completed`, `payout.failed` …); absent: `collect.payment.completed` if it receives it, else the first type it receives.',
        }),
      ),
    },
    { additionalProperties: false, title: 'DashboardTestEventRequest', examples: [{ type: 'collect.payment.completed' }, {}] },
  ),
  Type.Null(),
]);

export const AuditQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: maxPageLimit, default: defaultPageLimit, description: `Rows per page, 1 to ${maxPageLimit}.` }),
    starting_after: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The next_cursor of the previous page: the rows older than it.' })),
  },
  { additionalProperties: false },
);

const auditExample = {
  object: 'audit_entry',
  id: '0193b2e4-1a2c-7c3d-8e4f-5a6b7c8d9e10',
  merchant_id: MERCHANT_ID,
  user_id: USER_ID,
  action: 'api_key.created',
  target: `${KEY_ID} (test, ak_test_Xy3k…Q9zA)`,
  ip: '203.0.113.7',
  user_agent: 'Mozilla/5.0',
  created_at: '2026-06-02T08:15:00.000Z',
};
export const AuditEntryObject = Type.Object(
  {
    object: Type.Literal('audit_entry'),
    id: Type.String(),
    merchant_id: Type.Union([Type.String(), Type.Null()]),
    user_id: Type.Union([Type.String(), Type.Null()], { description: 'Who did it.' }),
    action: Type.String({ description: 'What was done (`api_key.created`, `webhook_endpoint.updated`, `member.role_changed` …).' }),
    target: Type.Union([Type.String(), Type.Null()], { description: 'What it was done to.' }),
    ip: Type.Union([Type.String(), Type.Null()]),
    user_agent: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'DashboardAuditEntry', examples: [auditExample] },
);
export const AuditList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(AuditEntryObject),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as starting_after for the older rows; null when there are none.' }),
  },
  { title: 'DashboardAuditList', examples: [{ object: 'list', data: [auditExample], has_more: false, next_cursor: null }] },
);
