/** The frame of every signed-in page: skip link, header with the switches, the menu, the page. */
import type { ComponentChildren } from 'preact';
import { useApp } from './app-context.js';
import { defineTexts, useTexts } from './i18n.js';
import { pages, type MenuSection } from './pages/registry.js';
import { useLocation } from './router.js';
import { LowFloatBanner } from './components/low-float-banner.js';

const texts = defineTexts(
  {
    skip: 'Aller au contenu',
    menu: 'Menu principal',
    environment: 'Environnement',
    test: 'Test',
    live: 'Production',
    test_banner: 'Mode test : les données de test, jamais d’argent réel.',
    language: 'Langue',
    sign_out: 'Se déconnecter',
    merchant: 'Marchand',
    money: 'Argent',
    developers: 'Développeurs',
    account: 'Compte',
    admin: 'Administration',
  },
  {
    skip: 'Skip to content',
    menu: 'Main menu',
    environment: 'Environment',
    test: 'Test',
    live: 'Live',
    test_banner: 'Test mode: test data only, never real money.',
    language: 'Language',
    sign_out: 'Sign out',
    merchant: 'Merchant',
    money: 'Money',
    developers: 'Developers',
    account: 'Account',
    admin: 'Administration',
  },
);

const sections: MenuSection[] = ['money', 'developers', 'account', 'admin'];

export function Layout({ children }: { children: ComponentChildren }) {
  const app = useApp();
  const t = useTexts(texts);
  const { path } = useLocation();
  const visible = pages.filter((page) => page.menu && (page.admin ? app.me.user.platform_admin : app.merchant && (!page.needs || app.merchant.permissions.includes(page.needs))));
  return (
    <div class={`shell env-${app.environment}`}>
      <a class="skip-link" href="#main">
        {t('skip')}
      </a>
      <header class="topbar">
        <a class="brand" href="/dashboard">
          Akwe
        </a>
        {app.me.memberships.length > 1 ? (
          <label class="inline-field">
            <span class="visually-hidden">{t('merchant')}</span>
            <select value={app.merchant?.merchant_id} onChange={(event) => app.setMerchant((event.currentTarget as HTMLSelectElement).value)}>
              {app.me.memberships.map((m) => (
                <option value={m.merchant_id}>{m.merchant_name}</option>
              ))}
            </select>
          </label>
        ) : (
          <span class="merchant-name">{app.merchant?.merchant_name}</span>
        )}
        <div class="switch" role="group" aria-label={t('environment')}>
          {(['test', 'live'] as const).map((environment) => (
            <button type="button" aria-pressed={app.environment === environment} onClick={() => app.setEnvironment(environment)}>
              {t(environment)}
            </button>
          ))}
        </div>
        <label class="inline-field">
          <span class="visually-hidden">{t('language')}</span>
          <select value={app.language} onChange={(event) => app.setLanguage((event.currentTarget as HTMLSelectElement).value === 'en' ? 'en' : 'fr')}>
            <option value="fr">Français</option>
            <option value="en">English</option>
          </select>
        </label>
        <button type="button" class="button-secondary" onClick={() => void app.signOut()}>
          {t('sign_out')}
        </button>
      </header>
      {app.me.user.platform_admin ? <LowFloatBanner /> : null}
      {app.environment === 'test' ? (
        <p class="test-banner" role="note">
          {t('test_banner')}
        </p>
      ) : null}
      <div class="body">
        <nav class="menu" aria-label={t('menu')}>
          {sections.map((section) => {
            const entries = visible.filter((page) => page.menu?.section === section);
            if (entries.length === 0) return null;
            return (
              <div class="menu-section">
                <h2 class="menu-title">{t(section)}</h2>
                <ul>
                  {entries.map((page) => (
                    <li>
                      <a href={page.path} aria-current={path === page.path ? 'page' : undefined}>
                        {page.menu?.[app.language]}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </nav>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
