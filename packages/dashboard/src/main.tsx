/**
 * The dashboard in the browser: finds the session (refresh cookie), then shows the page of the
 * address, or the sign-in page. See README.md for how pages are added.
 */
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { SIGNED_OUT_EVENT, dashboardApi, hasSessionHint, setCredentials, type Environment } from './api.js';
import { AppContext, type AppState } from './app-context.js';
import { LanguageContext, SetLanguageContext, chosenLanguage, saveLanguage, savedLanguage, type Language } from './i18n.js';
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

  /** Shown at once and remembered in this browser; signed in, also the language of the user's emails. */
  const setLanguage = (next: Language, signedIn: boolean) => {
    saveLanguage(next);
    setLanguageState(next);
    if (signedIn) void saveLanguageOnServer(next);
  };

  useEffect(() => {
    const signedIn = (event?: Event) =>
      void loadMe().then((loaded) => {
        adoptLanguage(loaded, setLanguageState);
        setPhase({ kind: 'signed-in', me: loaded });
        const next = (event as CustomEvent<SignedIn> | undefined)?.detail?.next;
        if (next) navigate(next, { replace: true });
      });
    const signedOut = () => setPhase({ kind: 'signed-out' });
    addEventListener(SIGNED_IN_EVENT, signedIn);
    addEventListener(SIGNED_OUT_EVENT, signedOut);
    // Without the CSRF cookie (set with the refresh cookie, removed with it) a refresh cannot succeed:
    // skip the call, so a signed-out visit makes no failing request (docs/decisions.md).
    if (hasSessionHint()) void refreshSession().then((session) => (session ? signedIn() : signedOut()));
    else signedOut();
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
          setLanguage(next, true);
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
        <SetLanguageContext.Provider value={(next) => setLanguage(next, app !== undefined)}>
          <div class="public" onClick={onClick}>
            <Public params={found.params ?? {}} />
          </div>
        </SetLanguageContext.Provider>
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

/** Signed in: the language picked in this browser becomes the user's; with none picked here, the user's own. */
function adoptLanguage(me: Me, show: (language: Language) => void): void {
  const chosen = chosenLanguage();
  if (chosen && chosen !== me.user.language) void saveLanguageOnServer(chosen);
  else if (!chosen && me.user.language) show(me.user.language);
}

async function saveLanguageOnServer(language: Language): Promise<void> {
  // The pages already show it; if this fails, the next load sends it again (adoptLanguage).
  await dashboardApi('/me/language', { method: 'PUT', body: { language } }).catch(() => undefined);
}

const root = document.getElementById('app');
if (root) render(<App />, root);
