// @vitest-environment jsdom
import type { ListOption } from '@dossierbase/core';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { theme } from '../app/theme';
import { i18n } from '../i18n';
import { fieldItem } from './item-fixture';
import { FIELD_COMPONENTS } from './registry';
import type { FieldEditorProps } from './types';

// Every field editor of the dossier form that can show an error ties it to what it shows: the error
// is read out when it appears (role=alert), the controls carry aria-invalid, and each invalid control
// is described by the error (aria-describedby on the control or on the group around it). Mantine's
// own inputs do that; these renders hold the custom ones (link, geolocation, rich text, signature,
// checkbox and radio lists) to it as well.

const ERROR = 'The value is wrong';

/** Editors that only show a value (computed, system, a button): they have no input to be wrong. */
const READ_ONLY = new Set(['calc', 'imageCode', 'customActionButton', 'systemdate', 'systemuser']);

const options: ListOption[] = [
  { id: 1, color: null, default: false, translations: [{ culture: 'en_GB', text: 'Open' }] },
  { id: 2, color: null, default: false, translations: [{ culture: 'en_GB', text: 'Closed' }] },
] as ListOption[];

interface Case {
  name: string;
  type: string;
  settings?: Record<string, unknown>;
  value?: unknown;
}

const cases: Case[] = [
  ...Object.entries(FIELD_COMPONENTS)
    .filter(([type, components]) => components.Editor && !READ_ONLY.has(type))
    .map(([type]) => ({ name: type, type })),
  { name: 'list as checkboxes', type: 'list', settings: { checkbox_view: true, multiple: true } },
  { name: 'list as radios', type: 'list', settings: { checkbox_view: true } },
  { name: 'file as a signature', type: 'file', settings: { signature: true }, value: [5] },
];

let root: Root | null = null;
let box: HTMLElement;

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  Element.prototype.scrollIntoView ??= () => {};
  // the file list asks the server for names: nobody answers here
  vi.stubGlobal('fetch', () => new Promise(() => {}));
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  box?.remove();
});

async function renderEditor({ type, settings = {}, value = null }: Case) {
  const { Editor } = FIELD_COMPONENTS[type as keyof typeof FIELD_COMPONENTS];
  if (!Editor) throw new Error(`${type} has no editor`);
  const props: FieldEditorProps = {
    item: fieldItem(type, settings),
    settings,
    value,
    onChange: () => {},
    label: 'Field',
    required: true,
    error: ERROR,
    options,
    searchDossiers: async () => ({ items: [], total: 0 }),
    loadUsers: async () => [],
  };
  box = document.createElement('div');
  document.body.append(box);
  root = createRoot(box);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await act(async () => {
    root?.render(
      <I18nextProvider i18n={i18n}>
        <MantineProvider theme={theme}>
          <QueryClientProvider client={client}>
            <Editor {...props} />
          </QueryClientProvider>
        </MantineProvider>
      </I18nextProvider>,
    );
  });
  // lazily loaded parts (the rich text editor) come in a moment later
  await vi.waitFor(
    async () => {
      await act(async () => {});
      if (!box.querySelector('[aria-invalid="true"]')) throw new Error('no invalid control yet');
    },
    { timeout: 5000 },
  );
  return box;
}

/** The ids an element is described by, its own and those of the groups around it. */
function describedBy(element: Element): string[] {
  const ids: string[] = [];
  for (let node: Element | null = element; node; node = node.parentElement)
    ids.push(...(node.getAttribute('aria-describedby')?.split(/\s+/) ?? []));
  return ids;
}

describe('field errors are tied to their fields and read out', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const field = await renderEditor(c);
    const errors = [...field.querySelectorAll('[id]')].filter((el) => el.textContent === ERROR);
    expect(errors, 'one element with the error text and an id').toHaveLength(1);
    const [error] = errors;
    expect(error.closest('[role="alert"], [role="status"], [aria-live]'), 'announced').not.toBeNull();
    const invalid = [...field.querySelectorAll('[aria-invalid="true"]')];
    expect(invalid.length).toBeGreaterThan(0);
    for (const control of invalid) expect(describedBy(control)).toContain(error.id);
  });
});
