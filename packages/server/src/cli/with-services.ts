import { loadConfig } from '../config.js';
import { openRuntime } from '../runtime.js';
import type { Services } from '../services.js';

/** Opens the configured database (migrating it if needed), runs one command, and closes it. */
export async function withServices<T>(run: (services: Services) => Promise<T>): Promise<T> {
  const services = await openRuntime(loadConfig());
  try {
    return await run(services);
  } finally {
    await services.database.close();
  }
}
