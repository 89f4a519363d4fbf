/** What every page of the signed-in dashboard knows: who, which merchant, which environment. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Environment } from './api.js';
import type { Language } from './i18n.js';
import type { Me, Membership } from './session.js';

export interface AppState {
  me: Me;
  /** The merchant the pages show (undefined for a platform administrator with no merchant). */
  merchant: Membership | undefined;
  environment: Environment;
  language: Language;
  setEnvironment(environment: Environment): void;
  setMerchant(merchantId: string): void;
  setLanguage(language: Language): void;
  signOut(): Promise<void>;
  /** Reads /me again (after a role or profile change). */
  reloadMe(): Promise<void>;
}

export const AppContext = createContext<AppState | undefined>(undefined);

export function useApp(): AppState {
  const app = useContext(AppContext);
  if (!app) throw new Error('useApp outside the signed-in dashboard');
  return app;
}

/** Whether the user's role in the active merchant allows the action (the server checks again). */
export function useCan(): (action: string) => boolean {
  const { merchant } = useApp();
  return (action) => merchant?.permissions.includes(action) ?? false;
}
