/** For the scripts that build the app in their own process (statement census, bytes per creation). */
import { testDatabases, type TestDatabase } from '../test/support/test-databases.js';

/** The test databases that `variable` names (comma-separated; all when unset), saying which are skipped and why. */
export function inProcessDatabases(variable: string): TestDatabase[] {
  const only = process.env[variable]?.split(',');
  return testDatabases().filter((target) => {
    if (only && !only.includes(target.name)) return false;
    if (target.skip) console.log(`${target.name}: skipped (${target.skip})`);
    return !target.skip;
  });
}
