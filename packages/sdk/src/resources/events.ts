import type { QueryParams, RequestBody } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource, segment } from './resource.js';

/** Events for catch-up reads and resends: the envelope webhooks deliver. */
export class Events extends Resource {
  /** GET /events, newest first; `type` takes families such as `collect.payment.*`. */
  list(query?: QueryParams<'listEvents'>, options?: RequestOptions) {
    return this.paginate('listEvents', '/events', query, options);
  }

  /** GET /events/{id}. */
  retrieve(id: string, options?: RequestOptions) {
    return this.call('getEvent', { method: 'GET', path: `/events/${segment(id)}` }, options);
  }

  /** POST /events/{id}/resend: to one endpoint, or to every destination that would receive it now. */
  resend(id: string, params: RequestBody<'resendEvent'> = {}, options?: RequestOptions) {
    return this.call('resendEvent', { method: 'POST', path: `/events/${segment(id)}/resend`, body: params, idempotent: true }, options);
  }
}
