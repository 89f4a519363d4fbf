// A node:test reporter that adds, after the spec reporter's summary, what was skipped and why.
// Node 20's own summary leaves skipped suites out of every count (a skipped `describe` never runs,
// so its tests are never known), which makes a run without PostgreSQL look complete. Counted here
// from the same events: suites and tests marked skip, grouped by the reason they gave.

/** "3 suites and 1 test" */
function counted(suites, tests) {
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [suites > 0 ? plural(suites, 'suite') : '', tests > 0 ? plural(tests, 'test') : ''].filter(Boolean).join(' and ');
}

export default async function* skipSummary(source) {
  const byReason = new Map();
  for await (const event of source) {
    // A skipped test or suite is reported once, as passed with `skip` set (true or its reason).
    if (event.type !== 'test:pass' || !event.data.skip) continue;
    const reason = typeof event.data.skip === 'string' ? event.data.skip : 'no reason given';
    const entry = byReason.get(reason) ?? { suites: 0, tests: 0 };
    if (event.data.details?.type === 'suite') entry.suites += 1;
    else entry.tests += 1;
    byReason.set(reason, entry);
  }
  if (byReason.size === 0) return;
  const lines = [...byReason].map(([reason, { suites, tests }]) => `ℹ ${counted(suites, tests)} skipped: ${reason}\n`);
  const anySuite = [...byReason.values()].some((entry) => entry.suites > 0);
  if (anySuite) lines.push('ℹ (a skipped suite never runs, so the tests inside it are in none of the counts above)\n');
  yield lines.join('');
}
