import type { QueryParams, Result } from '../api-types.js';
import type { operations } from '../generated/openapi.js';
import { listOf, type ListBody, type ListPromise } from '../pagination.js';
import type { RequestOptions, RequestSpec, Transport } from '../transport.js';

/** A path segment from a caller's value (a reference may hold characters that mean something in a URL). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

type ListItem<K extends keyof operations> = Result<K> extends ListBody<infer T> ? T : never;

export abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  protected call<K extends keyof operations>(_operation: K, spec: RequestSpec, options?: RequestOptions): Promise<Result<K>> {
    return this.transport.request<Result<K>>(spec, options);
  }

  protected paginate<K extends keyof operations>(_operation: K, path: string, query: QueryParams<K> | undefined, options?: RequestOptions): ListPromise<ListItem<K>> {
    return listOf<ListItem<K>, QueryParams<K>>(query, (pageQuery) => this.transport.request<ListBody<ListItem<K>>>({ method: 'GET', path, query: pageQuery }, options));
  }
}
