/** What every operator mock shares: timers that end with it, and how one is started on a port of its own. */
import Fastify, { type FastifyInstance } from 'fastify';

/** Work a mock does later (an operator deciding, a callback), all cancelled when the mock closes. */
export class MockTimers {
  private readonly timers = new Set<NodeJS.Timeout>();

  later(ms: number, work: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      work();
    }, ms);
    this.timers.add(timer);
  }

  stopTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

export interface RunningMock<State> {
  url: string;
  state: State;
  close(): Promise<void>;
}

/** Starts one mock alone on a port of its own (0: any free one). */
export async function startMockServer<State extends MockTimers>(
  state: State,
  plugin: (app: FastifyInstance) => Promise<void>,
  options: { port?: number; host?: string },
): Promise<RunningMock<State>> {
  // A hanging answer (the acceptThenHang fault) must not hold the close.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(plugin);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${host}:${port}`,
    state,
    close: async () => {
      state.stopTimers();
      await app.close();
    },
  };
}
