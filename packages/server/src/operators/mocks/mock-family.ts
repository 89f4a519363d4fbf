/**
 * One operator family's part of `akwe mocks`: which catalog slugs its mock serves, whether it is
 * the operator's own API (a direct route, listed first) or an aggregator (listed after the direct
 * routes, in the order of operator-mocks.ts), and how it mounts on the shared port. A new family's
 * mock plugs in with one line in `mockFamilies` (operator-mocks.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { MockTimers } from './mock-server.js';

export interface MockContext {
  /** The whole options object of startOperatorMocks: each family reads its own key. */
  options: Record<string, unknown>;
  /** The Akwe server's public URL, for operators that call a fixed URL (Wave's webhook). */
  serverUrl?: string;
}

export interface MountedMock {
  /** Each mock's state by catalog slug (tests drive and read it). */
  states: Record<string, MockTimers>;
  /** The operators-file entry (one route) of each slug, once the port's URL is known. */
  entries(url: string): Record<string, Record<string, unknown>>;
  /** A new server URL (for operators that call a fixed URL); optional. */
  serveTo?(serverUrl: string): void;
}

export interface MockFamily {
  /** The connector family's name (`mtn-momo`). */
  name: string;
  kind: 'direct' | 'aggregator';
  /** The catalog slugs its mock serves. */
  slugs: readonly string[];
  /** Registers its routes on the shared server (under prefixes of its own). */
  mount(app: FastifyInstance, context: MockContext): Promise<MountedMock>;
}
