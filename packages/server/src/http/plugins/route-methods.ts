import FindMyWay, { type HTTPMethod, type Instance } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

/**
 * Which methods each registered path answers, so that a known path asked with another method gets
 * 405 `method_not_allowed` with `Allow` (docs/failure-codes.md) instead of a 404 that suggests a
 * typo in the path. Paths are matched as Fastify's router matches them: same options (trailing
 * slash, longest parameter), same library.
 */
export class RouteMethods {
  private readonly router: Instance<FindMyWay.HTTPVersion.V1>;
  private readonly methods = new Set<HTTPMethod>();

  constructor(routerOptions: { ignoreTrailingSlash: boolean; maxParamLength: number }) {
    this.router = FindMyWay(routerOptions);
  }

  /** Records every route registered on `app` from now on (call before registering routes). */
  track(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat() as HTTPMethod[]) {
        // A path registered twice for one method (another plugin's prefix) keeps its first handler.
        if (this.router.hasRoute(method, route.url)) continue;
        this.router.on(method, route.url, () => undefined);
        this.methods.add(method);
      }
    });
  }

  /** The methods `path` answers, sorted; empty when no route has that path. */
  allowedFor(path: string): HTTPMethod[] {
    return [...this.methods].filter((method) => this.router.find(method, path) !== null).sort();
  }
}
