import { validateFieldSettings } from '@dossierbase/core';
import type { z } from 'zod';

/**
 * A form refinement: the settings checked as the server checks them on save (core's
 * validateFieldSettings), each message on settings.<key>. `base`: a base field's whole settings;
 * `override`: a data field's or display item's.
 */
export function checkSettings(
  type: string,
  settings: unknown,
  level: 'base' | 'override',
  ctx: z.RefinementCtx,
): void {
  const check = validateFieldSettings(type, settings, level);
  if (check.ok) return;
  for (const [key, message] of Object.entries(check.errors)) {
    ctx.addIssue({ code: 'custom', message, path: key.split('.') });
  }
}
