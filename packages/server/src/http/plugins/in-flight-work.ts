import type { FastifyInstance } from 'fastify';

/**
 * Work the server still owes after a client has gone. Fastify closes once every socket is closed,
 * but a request whose client left keeps running through its hooks and handler (its payment is
 * being written, its idempotency key completed): shutdown waits here before closing the database.
 */
export class InFlightWork {
  private count = 0;
  private waiters: (() => void)[] = [];

  /** Counts `work` until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    this.enter();
    const leave = () => this.leaveSoon();
    work.then(leave, leave);
    return work;
  }

  enter(): void {
    this.count += 1;
  }

  /**
   * Leaves a macrotask later: by then the onSend hooks that follow (which track their own writes)
   * have started, so the count never dips to zero in between.
   */
  leaveSoon(): void {
    setImmediate(() => this.leave());
  }

  /** Resolves once nothing is being tracked. */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  get size(): number {
    return this.count;
  }

  private leave(): void {
    this.count -= 1;
    if (this.count > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    inFlightWork: InFlightWork;
  }
}

const tracked = Symbol('akwe.inFlight');
const reachedHandler = Symbol('akwe.reachedHandler');
type Flags = Record<symbol, boolean>;

/**
 * Counts each request from its first hook until its reply is being sent. Every reply (success,
 * error, 404, idempotent replay) passes through onSend, whether or not the client is still there;
 * writes that run inside onSend (idempotency completion) track themselves with `track`. A request
 * whose client left before it reached preHandler may never finish parsing; nothing after that
 * point has written anything, so it stops counting when its connection closes (and counts again
 * should it reach preHandler after all).
 */
export function installInFlightTracking(app: FastifyInstance): InFlightWork {
  const work = new InFlightWork();
  app.decorate('inFlightWork', work);
  app.addHook('onRequest', (request, reply, done) => {
    const flags = request as unknown as Flags;
    flags[tracked] = true;
    work.enter();
    reply.raw.once('close', () => {
      if (flags[tracked] && !flags[reachedHandler]) {
        flags[tracked] = false;
        work.leaveSoon();
      }
    });
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const flags = request as unknown as Flags;
    flags[reachedHandler] = true;
    if (!flags[tracked]) {
      flags[tracked] = true;
      work.enter();
    }
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    const flags = request as unknown as Flags;
    if (flags[tracked]) {
      flags[tracked] = false;
      work.leaveSoon();
    }
    done(null, payload);
  });
  return work;
}
