import { REQUIRED_MESSAGE } from '@dossierbase/core';
import { useMemo } from 'react';
import { z } from 'zod';
import { useEnvironment } from '../environments/environment-store';

/** The environment's languages (their culture codes), or English when it has none. */
export function environmentCultures(locales: readonly { code: string }[] | undefined): string[] {
  const codes = (locales ?? []).map((locale) => locale.code).filter(Boolean);
  return codes.length > 0 ? codes : ['en'];
}

/** The current environment's cultures, the same array while they stay the same. */
export function useCultures(): string[] {
  const key = environmentCultures(useEnvironment()?.locales).join(' ');
  return useMemo(() => key.split(' '), [key]);
}

/** Texts per culture as an admin form holds them. */
export type CultureTexts = Record<string, string>;

export const cultureTextsSchema = z.record(z.string(), z.string());

/** The stored text of each culture, '' where there is none. */
export function cultureTexts<T extends { culture: string }>(
  cultures: readonly string[],
  translations: readonly T[] | undefined,
  text: (translation: T) => string | undefined,
): CultureTexts {
  return Object.fromEntries(
    cultures.map((culture) => {
      const found = translations?.find((tr) => tr.culture === culture);
      return [culture, (found && text(found)) ?? ''];
    }),
  );
}

/** The first text given, in the order of the cultures. */
export function firstText(cultures: readonly string[], texts: CultureTexts): string {
  return cultures.map((culture) => texts[culture]?.trim()).find(Boolean) ?? '';
}

/** Each culture's text, trimmed, an empty one filled with the first text given. */
export function withFallback(cultures: readonly string[], texts: CultureTexts): Record<string, string> {
  const first = firstText(cultures, texts);
  return Object.fromEntries(cultures.map((culture) => [culture, texts[culture]?.trim() || first]));
}

/** A refinement for a form's culture texts: at least one is given, else the first culture's box says so. */
export function requireOneText(cultures: readonly string[]) {
  return (texts: CultureTexts, ctx: z.RefinementCtx) => {
    if (!firstText(cultures, texts)) {
      ctx.addIssue({ code: 'custom', message: REQUIRED_MESSAGE, path: [cultures[0] ?? ''] });
    }
  };
}
