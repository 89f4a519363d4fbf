import { loadConfig, type Config } from '../config.js';
import type { Services } from '../services.js';

/** Opens the configured database (migrating it if needed), runs one command, and closes it. */
export async function withServices<T>(run: (services: Services, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  // Loaded here, not at the top: `akwe --help` must not pay for the whole server (docs/decisions.md).
  const { openRuntime } = await import('../runtime.js');
  const services = await openRuntime(config);
  try {
    return await run(services, config);
  } finally {
    await services.database.close();
  }
}
