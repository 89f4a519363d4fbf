/**
 * The dashboard in the browser: finds the session (refresh cookie), then shows the page of the
 * address, or the sign-in page. See README.md for how pages are added.
 */
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { SIGNED_OUT_EVENT, setCredentials, type Environment } from './api.js';
import { AppContext, type AppState } from './app-context.js';
import { LanguageContext, savedLanguage, type Language } from './i18n.js';
import { Layout } from './layout.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { pages } from './pages/registry.js';
import { followLink, matchPath, navigate, useLocation } from './router.js';
import { SIGNED_IN_EVENT, loadMe, refreshSession, saveEnvironment, saveMerchant, savedEnvironment, savedMerchant, signOut, type Me, type SignedIn } from './session.js';
import './styles.css';

type Phase = { kind: 'starting' } | { kind: 'signed-out' } | { kind: 'signed-in'; me: Me };

function App() {
  const [phase, setPhase] = useState<Phase>({ kind: 'starting' });
  const [language, setLanguageState] = useState<Language>(savedLanguage());
  const [environment, setEnvironmentState] = useState<Environment>(savedEnvironment());
  const [merchantId, setMerchantId] = useState<string | undefined>(savedMerchant());
  const location = useLocation();

  const me = phase.kind === 'signed-in' ? phase.me : undefined;
  const merchant = me?.memberships.find((m) => m.merchant_id === merchantId) ?? me?.memberships[0];
  // Set before the pages render: their requests carry these headers.
  setCredentials({ merchantId: merchant?.merchant_id, environment });

  useEffect(() => {
    const signedIn = (event?: Event) =>
      void loadMe().then((loaded) => {
        setPhase({ kind: 'signed-in', me: loaded });
        const next = (event as CustomEvent<SignedIn> | undefined)?.detail?.next;
        if (next) navigate(next, { replace: true });
      });
    const signedOut = () => setPhase({ kind: 'signed-out' });
    addEventListener(SIGNED_IN_EVENT, signedIn);
    addEventListener(SIGNED_OUT_EVENT, signedOut);
    void refreshSession().then((session) => (session ? signedIn() : signedOut()));
    return () => {
      removeEventListener(SIGNED_IN_EVENT, signedIn);
      removeEventListener(SIGNED_OUT_EVENT, signedOut);
    };
  }, []);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const app = useMemo<AppState | undefined>(
    () =>
      me && {
        me,
        merchant,
        environment,
        language,
        setEnvironment(next) {
          saveEnvironment(next);
          setEnvironmentState(next);
        },
        setMerchant(next) {
          saveMerchant(next);
          setMerchantId(next);
        },
        setLanguage(next) {
          localStorage.setItem('akwe.language', next);
          setLanguageState(next);
        },
        async signOut() {
          await signOut();
          setCredentials({ accessToken: undefined });
          setPhase({ kind: 'signed-out' });
          navigate('/dashboard/sign-in');
        },
        async reloadMe() {
          setPhase({ kind: 'signed-in', me: await loadMe() });
        },
      },
    [me, merchant, environment, language],
  );

  if (phase.kind === 'starting') return null;
  const found = pages.map((page) => ({ page, params: matchPath(page.path, location.path) })).find((candidate) => candidate.params);
  const onClick = (event: MouseEvent) => followLink(event);
  if (found?.page.public) {
    const Public = found.page.component;
    return (
      <LanguageContext.Provider value={language}>
        <div class="public" onClick={onClick}>
          <Public params={found.params ?? {}} />
        </div>
      </LanguageContext.Provider>
    );
  }
  if (!app) {
    navigate(`/dashboard/sign-in?next=${encodeURIComponent(location.path + window.location.search)}`, { replace: true });
    return null;
  }
  const Page = found && (!found.page.admin || me?.user.platform_admin) ? found.page.component : NotFoundPage;
  return (
    <LanguageContext.Provider value={language}>
      <AppContext.Provider value={app}>
        <div onClick={onClick}>
          <Layout>
            <Page params={found?.params ?? {}} key={`${location.path}|${environment}|${merchant?.merchant_id ?? ''}`} />
          </Layout>
        </div>
      </AppContext.Provider>
    </LanguageContext.Provider>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
