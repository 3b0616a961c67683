import {
  defDossierDefFieldCreateSchema,
  defDossierLinkCreateSchema,
  defFieldCreateSchema,
  defFieldListCreateSchema,
  displayItemCreateSchema,
  displayPositionCreateSchema,
} from '@dossierbase/core';
import type { Db } from './db/database';
import { openEntityScope } from './policy/entity';
import { createDossier } from './resources/content-dossier/service';
import { createDataField } from './resources/def-dossier-def-field/service';
import { createLink } from './resources/def-dossier-link/service';
import { createDefField } from './resources/def-field/service';
import { createListOption } from './resources/def-field-list/service';
import { createDisplayItem } from './resources/display-item/service';
import { createPosition } from './resources/display-position/service';

// First start only (npm start): fields, layouts and a few dossiers for the demo's Client and Case
// entities, built through the same services as the admin screens and the create call, so the demo
// shows a working list, detail page and create form. The test suites seed without them.

type FieldSpec = {
  name: string;
  type: string;
  settings?: Record<string, unknown>;
  obligatory?: boolean;
  options?: { text: string; color: string }[];
  list?: boolean;
  search?: boolean;
  summary?: boolean;
};

const CLIENT_FIELDS: FieldSpec[] = [
  {
    name: 'Name',
    type: 'text',
    obligatory: true,
    settings: { validators: ['UniqueValue'] },
    list: true,
    search: true,
    summary: true,
  },
  { name: 'Email', type: 'email', list: true, search: true },
  { name: 'Birth date', type: 'date', list: true, search: true },
  {
    name: 'Client status',
    type: 'list',
    list: true,
    search: true,
    options: [
      { text: 'Active', color: '#2f9e44' },
      { text: 'Inactive', color: '#868e96' },
    ],
  },
  { name: 'Notes', type: 'textarea' },
];

const CASE_FIELDS: FieldSpec[] = [
  { name: 'Case number', type: 'autoIncrement', settings: { prefix: 'C-' }, list: true, summary: true },
  { name: 'Title', type: 'text', obligatory: true, list: true, search: true, summary: true },
  {
    name: 'Case status',
    type: 'list',
    list: true,
    search: true,
    options: [
      { text: 'Open', color: '#1c7ed6' },
      { text: 'Waiting', color: '#f08c00' },
      { text: 'Closed', color: '#2f9e44' },
    ],
  },
  { name: 'Amount', type: 'amount', settings: { decimals: 2, currency: 'EUR' }, list: true, search: true },
  { name: 'Due date', type: 'date', list: true, search: true },
  { name: 'Description', type: 'textarea' },
];

async function buildEntity(db: Db, environmentId: number, defDossierId: number, fields: FieldSpec[]) {
  const environment = environmentId;
  const defDossier = defDossierId;
  const main = await createPosition(
    db,
    displayPositionCreateSchema.parse({
      environment,
      defDossier,
      type: 'main_content',
      rank: 1,
      translations: [
        { culture: 'en_GB', name: 'General' },
        { culture: 'nl_NL', name: 'Algemeen' },
      ],
    }),
  );
  const items = new Map<string, number>();
  const options = new Map<string, number>();
  for (const [index, spec] of fields.entries()) {
    const base = await createDefField(
      db,
      defFieldCreateSchema.parse({
        environment,
        name: spec.name,
        type: spec.type,
        settings: spec.settings ?? {},
      }),
    );
    for (const [rank, option] of (spec.options ?? []).entries()) {
      const row = await createListOption(
        db,
        defFieldListCreateSchema.parse({
          environment,
          defField: base.id,
          color: option.color,
          rank,
          translations: [{ culture: 'en_GB', text: option.text }],
        }),
      );
      options.set(option.text, row.id);
    }
    const dataField = await createDataField(
      db,
      defDossierDefFieldCreateSchema.parse({
        environment,
        defDossier,
        defField: base.id,
        name: spec.name,
        obligatory: spec.obligatory ?? false,
      }),
    );
    const item = (view: string, position: number | null, rank: number) =>
      createDisplayItem(
        db,
        displayItemCreateSchema.parse({
          environment,
          defDossier,
          displayPosition: position,
          defDossierDefField: dataField.id,
          view,
          rank,
          colspan: spec.type === 'textarea' ? 12 : 6,
          col: spec.type === 'textarea' ? 1 : (index % 2) * 6 + 1,
        }),
      );
    // two fields per row on the main tab, rich text on a row of its own
    const shown = await item(
      'show/edit',
      main.id,
      spec.type === 'textarea' ? index + 100 : Math.floor(index / 2) + 1,
    );
    items.set(spec.name, shown.id);
    if (spec.list) await item('list', null, index + 1);
    if (spec.search) await item('search', null, index + 1);
    if (spec.summary) await item('summary', null, index + 1);
  }
  return { main, items, options };
}

/** Adds fields, layouts, a link and dossiers to the demo environment seeded by seedDemo. */
export async function seedDemoRecords(db: Db): Promise<void> {
  const environment = await db
    .selectFrom('environment')
    .select('id')
    .where('name', '=', 'Demo')
    .executeTakeFirstOrThrow();
  const entities = await db
    .selectFrom('def_dossier')
    .select(['id', 'translations'])
    .where('environment_id', '=', environment.id)
    .execute();
  const entityNamed = (name: string) => {
    const found = entities.find((e) => e.translations.some((tr) => tr.name_singular === name));
    if (!found) throw new Error(`demo entity ${name} missing`);
    return found.id;
  };
  const admin = await db
    .selectFrom('app_user')
    .selectAll()
    .where('username', '=', 'admin')
    .executeTakeFirstOrThrow();
  const clientId = entityNamed('Client');
  const caseId = entityNamed('Case');
  const client = await buildEntity(db, environment.id, clientId, CLIENT_FIELDS);
  const kase = await buildEntity(db, environment.id, caseId, CASE_FIELDS);

  const link = await createLink(
    db,
    defDossierLinkCreateSchema.parse({
      environment: environment.id,
      defDossier: caseId,
      childDefDossier: clientId,
      name: 'Client',
      typeOfLink: 'select',
    }),
  );
  const linkItem = await createDisplayItem(
    db,
    displayItemCreateSchema.parse({
      environment: environment.id,
      defDossier: caseId,
      displayPosition: kase.main.id,
      defDossierLink: link.id,
      view: 'show/edit',
      rank: 50,
      colspan: 6,
    }),
  );
  await createDisplayItem(
    db,
    displayItemCreateSchema.parse({
      environment: environment.id,
      defDossier: caseId,
      defDossierLink: link.id,
      view: 'list',
      rank: 50,
    }),
  );

  const clientScope = await openEntityScope(db, admin, clientId);
  const caseScope = await openEntityScope(db, admin, caseId);
  const c = (name: string) => String(client.items.get(name));
  const k = (name: string) => String(kase.items.get(name));
  const clients: number[] = [];
  const people = [
    ['Anna de Vries', 'anna@example.com', '1984-03-12', 'Active'],
    ['Bram Jansen', 'bram@example.com', '1990-11-02', 'Active'],
    ['Chantal Bakker', 'chantal@example.com', '1975-06-23', 'Inactive'],
    ['Daan Visser', 'daan@example.com', '2001-01-30', 'Active'],
  ];
  for (const [name, email, birth, status] of people) {
    clients.push(
      await createDossier(db, clientScope, {
        values: {
          [c('Name')]: name,
          [c('Email')]: email,
          [c('Birth date')]: birth,
          [c('Client status')]: client.options.get(status),
          [c('Notes')]: `<p>First contact with <strong>${name}</strong>.</p>`,
        },
        ignore_existing: true,
      }),
    );
  }
  const cases = [
    ['Housing application', 'Open', 1250, '2026-12-15', 0],
    ['Benefit review', 'Waiting', 480.5, '2026-12-01', 1],
    ['Debt counselling', 'Open', 3200, '2027-01-20', 0],
    ['Care request', 'Closed', 0, '2026-10-30', 2],
    ['School transport', 'Open', 760, '2027-02-01', 3],
  ] as const;
  for (const [title, status, amount, due, clientIndex] of cases) {
    await createDossier(db, caseScope, {
      values: {
        [k('Title')]: title,
        [k('Case status')]: kase.options.get(status),
        [k('Amount')]: amount,
        [k('Due date')]: due,
        [k('Description')]: `<p>${title} for a demo client.</p>`,
        [String(linkItem.id)]: [clients[clientIndex]],
      },
      ignore_existing: true,
    });
  }
}
