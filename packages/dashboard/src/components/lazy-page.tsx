import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Loading } from './feedback.js';

type PageComponent = ComponentType<{ params: Record<string, string> }>;

/**
 * A page whose code is fetched the first time it is shown, from a chunk of its own: the back
 * office's pages, which merchants never open, stay out of the file every merchant downloads.
 */
export function lazyPage(load: () => Promise<PageComponent>): PageComponent {
  let loaded: PageComponent | undefined;
  return function LazyPage(props) {
    const [Page, setPage] = useState<PageComponent | undefined>(() => loaded);
    const [error, setError] = useState<Error | undefined>();
    useEffect(() => {
      if (Page) return;
      load().then(
        (component) => {
          loaded = component;
          setPage(() => component);
        },
        (failed: unknown) => setError(failed instanceof Error ? failed : new Error(String(failed))),
      );
    }, [Page]);
    if (error) return <ErrorMessage error={error} onRetry={() => window.location.reload()} />;
    return Page ? <Page {...props} /> : <Loading />;
  };
}
