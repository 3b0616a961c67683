import { useEffect, useRef, useState } from 'react';
import type { DossierValues } from './dossier-api';

/**
 * The values of a new dossier's form, starting from its defaults. The defaults are made from what the
 * page reads (the layout and its options, the signed-in user), any of which may arrive again while the
 * user types (a read again after a change elsewhere, a renewed access token): the fields the user has
 * not changed take the new defaults, the ones they changed keep what they entered. (Setting every
 * field to the defaults again lost a choice made just before, which the keyboard scenario caught.)
 */
export function useFormDefaults(defaults: DossierValues) {
  const [values, setValues] = useState<DossierValues>({});
  const applied = useRef<DossierValues>({});
  useEffect(() => {
    const previous = applied.current;
    applied.current = defaults;
    setValues((current) => {
      const next = { ...defaults };
      for (const [key, value] of Object.entries(current)) if (value !== previous[key]) next[key] = value;
      return next;
    });
  }, [defaults]);
  return [values, setValues] as const;
}
