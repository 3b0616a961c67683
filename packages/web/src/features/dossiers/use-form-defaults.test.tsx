// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { expect, it } from 'vitest';
import type { DossierValues } from './dossier-api';
import { useFormDefaults } from './use-form-defaults';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let form: { values: DossierValues; set: (key: string, value: unknown) => void };
function Form({ defaults }: { defaults: DossierValues }) {
  const [values, setValues] = useFormDefaults(defaults);
  form = { values, set: (key, value) => setValues((current) => ({ ...current, [key]: value })) };
  return null;
}

it('takes the defaults, and defaults read again change only the fields the user left alone', () => {
  const root = createRoot(document.createElement('div'));
  act(() => root.render(<Form defaults={{ status: null, owner: 7, tags: [] }} />));
  expect(form.values).toEqual({ status: null, owner: 7, tags: [] });

  act(() => form.set('status', 3));
  act(() => form.set('owner', null));
  // the same defaults arrive again as new objects (a read again), one of them changed
  act(() => root.render(<Form defaults={{ status: null, owner: 7, tags: [1] }} />));
  expect(form.values).toEqual({ status: 3, owner: null, tags: [1] });

  // defaults for a field that appeared later are taken too
  act(() => root.render(<Form defaults={{ status: null, owner: 7, tags: [1], due: '2026-12-01' }} />));
  expect(form.values).toEqual({ status: 3, owner: null, tags: [1], due: '2026-12-01' });
  act(() => root.unmount());
});
