/**
 * pawaPay's callbacks, registered in pawaPay's Dashboard (one URL per kind):
 *   <PUBLIC_URL>/api/v1/operators/pawapay/callbacks/deposits | payouts | refunds
 * When any pawaPay entry names pawaPay's public key (signed callbacks on), a callback must carry a
 * valid RFC 9421 signature by it over its raw body, or it is refused (401 unauthenticated) before
 * anything is read. Signed or not, a callback is only a hint: the resource it names is refreshed
 * from pawaPay's own status check, so a forged one changes nothing pawaPay did not say.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import type { OperatorConnectors } from '../../core/operators/operator-connector.js';
import type { Clock } from '../../core/ports.js';
import { readPawapayCallback } from '../../operators/pawapay/pawapay-callbacks.js';

export interface PawapayCallbackOptions {
  operators: OperatorConnectors;
  publicUrl: string;
  clock: Clock;
  /** Refreshes the named resource from its operator; undefined when it is none of ours. */
  refresh(request: FastifyRequest, family: string, named: { resource: 'payment' | 'payout' | 'refund'; id: string } | undefined): Promise<void>;
}

export async function pawapayCallbackRoutes(app: FastifyInstance, options: PawapayCallbackOptions): Promise<void> {
  // The signature covers the raw body: this scope keeps JSON bodies as bytes.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const publicHost = new URL(options.publicUrl).host;

  app.post<{ Params: { kind: string } }>('/pawapay/callbacks/:kind', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const connectors = options.operators.liveConnectorsOf('pawapay');
    const keyed = connectors.filter((connector) => connector.signsCallbacks !== false);
    if (keyed.length > 0) {
      const nowSeconds = Math.floor(options.clock.now().getTime() / 1000);
      const headers = {
        ...request.headers,
        ':method': request.method,
        ':authority': [request.headers.host, publicHost].filter(Boolean).join(','),
        ':path': request.url.split('?')[0]!,
      };
      if (!keyed.some((connector) => connector.verifyWebhook?.(raw, headers, nowSeconds))) {
        throw new AkweError('unauthenticated', 'The callback carries no valid pawaPay signature (Signature, Signature-Input, Content-Digest).');
      }
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new AkweError('validation_error', 'Not a pawaPay callback: the body is not JSON.');
    }
    const callback = readPawapayCallback(request.params.kind, body);
    if ('invalid' in callback) throw new AkweError('validation_error', `Not a pawaPay callback: ${callback.invalid}.`);
    await options.refresh(request, 'pawapay', callback);
    return reply.code(200).send({ received: true });
  });
}
