/** Loads data for a page; reloads when `deps` change (the environment and merchant always count). */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { useApp } from '../app-context.js';

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload(): void;
}

export function useApi<T>(load: () => Promise<T>, deps: unknown[] = []): Loaded<T> {
  const { environment, merchant } = useApp();
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: Error) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [environment, merchant?.merchant_id, tick, ...deps]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
