import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { DashboardDevelopers } from '../../core/dashboard/dashboard-developers.js';
import type { DashboardService, MemberCaller } from '../../core/dashboard/dashboard-service.js';
import type { AuditEntry } from '../../core/dashboard/dashboard-user.js';
import type { Action } from '../../core/dashboard/permissions.js';
import { AkweError } from '../../core/errors/index.js';
import type { ApiKey } from '../../core/merchants/api-key.js';
import type { Scope } from '../../core/merchants/scopes.js';
import { looksLikeId } from '../../core/shared/ids.js';
import { errorResponses } from '../shared/error-schemas.js';
import { installListCursors, readList } from '../shared/list-cursors.js';
import type { DestinationUrlCheck } from '../shared/url-policy.js';
import { deliveryToWire, endpointToWire } from '../webhooks/webhook-mapper.js';
import { CreateEndpointBody, DeliveryList, DeliveryObject, EndpointList, EndpointObject, PageQuery, RotateSecretBody, UpdateEndpointBody } from '../webhooks/webhook-schemas.js';
import { callerOf, originOf } from './dashboard-context.js';
import { MerchantParams } from './dashboard-schemas.js';
import {
  AuditList,
  AuditQuery,
  CreatedKey,
  CreateKeyBody,
  DashboardResendBody,
  EndpointParams,
  EventParams,
  KeyList,
  KeyObject,
  KeyParams,
  TestEventBody,
} from './developer-schemas.js';

export interface DeveloperRoutesOptions {
  dashboard: DashboardService;
  developers: DashboardDevelopers;
  /** Where a webhook endpoint may point: the same check as the API-key routes'. */
  destinationUrls: DestinationUrlCheck;
  serverSecret: () => string;
}

const tags = ['dashboard'];
const session = [{ dashboardSession: [] }];
const config = { dashboardSession: true };

const keyToWire = (key: ApiKey, beyondCreator: Scope[] = []) => ({
  object: 'api_key' as const,
  id: key.id,
  environment: key.environment,
  prefix: key.keyPrefix,
  last4: key.keyLastFour,
  scopes: key.scopes,
  created_at: key.createdAt,
  revoked_at: key.revokedAt,
  last_used_at: key.lastUsedAt,
  created_by: key.createdByUserId,
  scopes_beyond_creator_role: beyondCreator,
});

const auditToWire = (entry: AuditEntry) => ({
  object: 'audit_entry' as const,
  id: entry.id,
  merchant_id: entry.merchantId,
  user_id: entry.userId,
  action: entry.action,
  target: entry.target,
  ip: entry.ip,
  user_agent: entry.userAgent,
  created_at: entry.createdAt,
});

/**
 * The developers section of the dashboard (docs/dashboard.md "Developers"), under
 * /merchants/:merchantId: API keys, webhook endpoints and their deliveries, resends, the audit
 * log. Registered inside the dashboard scope, so its session and environment hooks apply.
 */
export const developerRoutes: FastifyPluginAsyncTypebox<DeveloperRoutesOptions> = async (app, { dashboard, developers, destinationUrls, serverSecret }) => {
  installListCursors(app, serverSecret);
  // Every route here has :merchantId (MerchantParams or a schema extending it).
  const acting = (request: FastifyRequest, action: Action): Promise<MemberCaller> =>
    dashboard.actingIn(callerOf(request).user, (request.params as { merchantId: string }).merchantId, action);
  const scopeOf = (caller: MemberCaller, request: FastifyRequest) => ({ merchantId: caller.merchantId, environment: request.dashboardEnvironment });

  app.get(
    '/merchants/:merchantId/keys',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardListApiKeys',
        summary: 'The API keys of the active environment, newest first (never their secrets)',
        params: MerchantParams,
        response: { 200: KeyList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'read');
      return { object: 'list' as const, data: (await developers.listKeys(caller, request.dashboardEnvironment)).map((listed) => keyToWire(listed.key, listed.beyondCreator)) };
    },
  );

  app.post(
    '/merchants/:merchantId/keys',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardCreateApiKey',
        summary: 'Create an API key in the active environment (keys.manage); the answer shows the secret once',
        description:
          'The key holds at most the scopes of your role; empty or absent `scopes` means your role’s scopes (never every scope), more is 403 insufficient_role naming them. A live key may be made before the merchant’s KYC is validated, without money-out scopes (collect:refund, payout:write, bulk:write, transfers:write, settlements:write): asking for one then is 403 kyc_required, and an empty list leaves them out.',
        params: MerchantParams,
        body: CreateKeyBody,
        response: { 201: CreatedKey, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const caller = await acting(request, 'keys.manage');
      const issued = await developers.createKey(caller, request.dashboardEnvironment, request.body.scopes ?? [], originOf(request));
      reply.header('cache-control', 'no-store');
      return reply.code(201).send({ ...keyToWire(issued.key), secret: issued.secret });
    },
  );

  app.delete(
    '/merchants/:merchantId/keys/:keyId',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardRevokeApiKey',
        summary: 'Revoke an API key at once (keys.manage)',
        params: KeyParams,
        response: { 200: KeyObject, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'keys.manage');
      return keyToWire(await developers.revokeKey(caller, request.dashboardEnvironment, request.params.keyId, originOf(request)));
    },
  );

  app.get(
    '/merchants/:merchantId/webhook-endpoints',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardListWebhookEndpoints',
        summary: 'Webhook endpoints of the active environment, newest first',
        params: MerchantParams,
        querystring: PageQuery,
        response: { 200: EndpointList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'read');
      const scope = scopeOf(caller, request);
      const list = readList(request, 'dashboard_webhook_endpoints', {}, undefined, scope);
      return list.envelope(await developers.listEndpoints(caller, scope.environment, list.page), (e) => endpointToWire(e));
    },
  );

  app.post(
    '/merchants/:merchantId/webhook-endpoints',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardCreateWebhookEndpoint',
        summary: 'Create a webhook endpoint (webhooks.manage); the answer shows its signing secret',
        params: MerchantParams,
        body: CreateEndpointBody,
        response: { 201: EndpointObject, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const caller = await acting(request, 'webhooks.manage');
      const body = request.body;
      await destinationUrls(body.url, request.dashboardEnvironment, 'url');
      const endpoint = await developers.createEndpoint(
        caller,
        request.dashboardEnvironment,
        { url: body.url, eventTypes: body.events, description: body.description, enabled: body.enabled, apiVersion: body.api_version, maxInFlight: body.max_in_flight },
        originOf(request),
      );
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(endpointToWire(endpoint, { withSecret: true }));
    },
  );

  app.patch(
    '/merchants/:merchantId/webhook-endpoints/:id',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardUpdateWebhookEndpoint',
        summary: 'Change a webhook endpoint: url, events, enabled (webhooks.manage)',
        params: EndpointParams,
        body: UpdateEndpointBody,
        response: { 200: EndpointObject, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'webhooks.manage');
      const body = request.body;
      if (body.url !== undefined) await destinationUrls(body.url, request.dashboardEnvironment, 'url');
      const endpoint = await developers.updateEndpoint(
        caller,
        request.dashboardEnvironment,
        request.params.id,
        { url: body.url, eventTypes: body.events, description: body.description, enabled: body.enabled, apiVersion: body.api_version, maxInFlight: body.max_in_flight },
        originOf(request),
      );
      return endpointToWire(endpoint);
    },
  );

  app.post(
    '/merchants/:merchantId/webhook-endpoints/:id/rotate-secret',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardRotateWebhookEndpointSecret',
        summary: 'Rotate the signing secret (webhooks.manage); the answer shows the new one',
        description: 'The new secret signs at once; the old one keeps signing as a second v1 value for overlap_seconds (default 86400).',
        params: EndpointParams,
        body: RotateSecretBody,
        response: { 200: EndpointObject, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const caller = await acting(request, 'webhooks.manage');
      const endpoint = await developers.rotateSecret(caller, request.dashboardEnvironment, request.params.id, request.body?.overlap_seconds, originOf(request));
      reply.header('cache-control', 'no-store');
      return endpointToWire(endpoint, { withSecret: true });
    },
  );

  app.get(
    '/merchants/:merchantId/webhook-endpoints/:id/deliveries',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardListWebhookDeliveries',
        summary: 'The endpoint’s deliveries, newest first, with every try (status code, response excerpt)',
        params: EndpointParams,
        querystring: PageQuery,
        response: { 200: DeliveryList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'read');
      const scope = scopeOf(caller, request);
      const list = readList(request, 'dashboard_webhook_deliveries', {}, request.params.id, scope);
      return list.envelope(await developers.listDeliveries(caller, scope.environment, request.params.id, list.page), deliveryToWire);
    },
  );

  app.get(
    '/merchants/:merchantId/events/:eventId/deliveries',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardListEventDeliveries',
        summary: 'Where one event went: its deliveries (one per destination) with every try',
        description: 'Oldest first. An event of another merchant or environment has none here (an empty list).',
        params: EventParams,
        response: { 200: Type.Object({ object: Type.Literal('list'), data: Type.Array(DeliveryObject) }, { title: 'DashboardEventDeliveries' }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'read');
      const deliveries = await developers.deliveriesOfEvent(caller, request.dashboardEnvironment, request.params.eventId);
      return { object: 'list' as const, data: deliveries.map((d) => deliveryToWire(d)) };
    },
  );

  app.post(
    '/merchants/:merchantId/webhook-endpoints/:id/test-event',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardSendTestEvent',
        summary: 'Send a sample event to this endpoint only (webhooks.manage)',
        description:
          'A made-up object (ids starting with `00000000-7e57-`, references with `akwe_test_event_`, metadata `akwe_test_event: "true"`) in an event of a type the endpoint receives, rendered in its api_version, signed and delivered like any event; it shows in the endpoint’s deliveries. A disabled endpoint, or a type it does not receive: 400.',
        params: EndpointParams,
        body: TestEventBody,
        response: { 202: DeliveryObject, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const caller = await acting(request, 'webhooks.manage');
      const delivery = await developers.sendTestEvent(caller, request.dashboardEnvironment, request.params.id, request.body?.type, originOf(request));
      return reply.code(202).send(deliveryToWire(delivery));
    },
  );

  app.post(
    '/merchants/:merchantId/events/:eventId/resend',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardResendEvent',
        summary: 'Send an event again, to one endpoint or to all its destinations (webhooks.manage)',
        params: EventParams,
        body: DashboardResendBody,
        response: {
          202: Type.Object({ object: Type.Literal('list'), data: Type.Array(DeliveryObject) }, { title: 'DashboardResentDeliveries' }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const caller = await acting(request, 'webhooks.manage');
      const deliveries = await developers.resend(caller, request.dashboardEnvironment, request.params.eventId, request.body?.endpoint_id, originOf(request));
      return reply.code(202).send({ object: 'list' as const, data: deliveries.map((d) => deliveryToWire(d)) });
    },
  );

  app.get(
    '/merchants/:merchantId/audit-log',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardListAuditLog',
        summary: 'Who did what in the merchant, newest first (owner and admin)',
        params: MerchantParams,
        querystring: AuditQuery,
        response: { 200: AuditList, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      // The log names people and addresses: those who manage the team read it.
      const caller = await acting(request, 'team.manage');
      const { limit, starting_after: startingAfter } = request.query;
      if (startingAfter !== undefined && !looksLikeId(startingAfter)) {
        throw AkweError.ofField('invalid_cursor', 'starting_after', 'starting_after must be the next_cursor of a previous page of this log.');
      }
      const page = await developers.auditLog(caller, { limit, startingAfter: startingAfter?.toLowerCase() });
      const last = page.data.at(-1);
      return { object: 'list' as const, data: page.data.map(auditToWire), has_more: page.hasMore, next_cursor: page.hasMore && last ? last.id : null };
    },
  );
};
