/**
 * One list route of the API, declared once: GET, newest first, signed cursor pages (list-cursors),
 * the `read` rate-limit budget, enum filters in any letter case, the 400/401/403/429 answers. A
 * route gives its names and schemas, how its query becomes the core's filters, the core's read and
 * the wire mapper; the shape every list shares lives here.
 */
import type { FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Static, TObject, TSchema } from 'typebox';
import type { Principal } from '../../core/merchants/principal.js';
import type { Scope } from '../../core/merchants/scopes.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import { principalOf } from '../plugins/authentication.js';
import { errorResponses } from './error-schemas.js';
import { readList } from './list-cursors.js';
import { enumFiltersInAnyCase, instantFilter, metadataFilter } from './list-filters.js';

export interface ListRouteDefinition<Query extends TObject, Filters extends object, Item extends { id: string }> {
  /** The list's stable name, which its cursors are bound to. */
  list: string;
  scope: Scope;
  tags: string[];
  operationId: string;
  summary: string;
  description: string;
  querystring: Query;
  /** The list envelope's schema (listOf(...)). */
  response: TSchema;
  /** The query's filters as the core takes them (instants normalised, phone checked, ...). */
  filters(query: Static<Query>): Filters;
  read(principal: Principal, filters: Filters, page: PageRequest): Promise<Page<Item>>;
  toWire(item: Item): unknown;
}

/** `app.get(path, ...listRoute({...}))`: the route's options and its handler. */
export function listRoute<Query extends TObject, Filters extends object, Item extends { id: string }>(
  definition: ListRouteDefinition<Query, Filters, Item>,
): [RouteShorthandOptions, (request: FastifyRequest) => Promise<unknown>] {
  const { list, scope, tags, operationId, summary, description, querystring, response } = definition;
  return [
    {
      config: { scope, rateLimitBucket: 'read' },
      preValidation: enumFiltersInAnyCase(querystring),
      schema: { tags, operationId, summary, description, querystring, response: { 200: response, ...errorResponses(400, 401, 403, 429) } },
    },
    async (request) => {
      const filters = definition.filters(request.query as Static<Query>);
      const read = readList(request, list, filters);
      return read.envelope(await definition.read(principalOf(request), filters, read.page), definition.toWire);
    },
  ];
}

/** The filters most lists share: a reference, creation bounds and one `metadata[key]=value`. */
export function commonListFilters(query: { reference?: string; created_gte?: string; created_lte?: string }) {
  return {
    reference: query.reference,
    createdGte: instantFilter(query.created_gte, 'created_gte'),
    createdLte: instantFilter(query.created_lte, 'created_lte'),
    metadata: metadataFilter(query),
  };
}

/** Creation bounds alone, for lists without references or metadata (bulk batches). */
export function createdFilters(query: { created_gte?: string; created_lte?: string }) {
  return { createdGte: instantFilter(query.created_gte, 'created_gte'), createdLte: instantFilter(query.created_lte, 'created_lte') };
}
