/**
 * Runs `work` on every item, at most `limit` at a time. Every item is tried even when some fail;
 * the first failure is thrown once all have finished.
 */
export async function eachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let firstError: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        firstError ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (firstError) throw firstError.error;
}
