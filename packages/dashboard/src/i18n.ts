/**
 * Texts in French (the default) and English. Each page keeps its own texts beside it, made with
 * `defineTexts`, whose types make both languages carry the same keys.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export const languages = ['fr', 'en'] as const;
export type Language = (typeof languages)[number];

export interface Texts<K extends string> {
  fr: Record<K, string>;
  en: Record<K, string>;
}

export function defineTexts<K extends string>(fr: Record<K, string>, en: Record<K, string>): Texts<K> {
  return { fr, en };
}

export const LanguageContext = createContext<Language>('fr');

/** `{name}` in a text is replaced by `vars.name`. */
export function translate<K extends string>(texts: Texts<K>, language: Language, key: K, vars?: Record<string, string | number>): string {
  const text = texts[language][key];
  return vars ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole)) : text;
}

export function useTexts<K extends string>(texts: Texts<K>): (key: K, vars?: Record<string, string | number>) => string {
  const language = useContext(LanguageContext);
  return (key, vars) => translate(texts, language, key, vars);
}

export function useLanguage(): Language {
  return useContext(LanguageContext);
}

export function savedLanguage(): Language {
  const saved = localStorage.getItem('akwe.language');
  return saved === 'en' ? 'en' : 'fr';
}
