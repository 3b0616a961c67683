import { createHash, randomBytes } from 'node:crypto';
import { FORBIDDEN_MESSAGE } from '@dossierbase/core';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDisplayItem, buildLink, buildListOption, buildPermission } from '../test/entity-factories';
import { put } from '../test/entity-test-setup';
import { addMember, buildDefDossier, buildEnvironment, buildRole, buildUser } from '../test/factories';
import { createTestAppWithMail, type MailTestApp, type TestApp, TestClient } from '../test/test-app';
import type { RouteAccess } from './policy/route-access';
import { addField } from './resources/content-dossier/fixture';

// Tenant isolation over the server's own route table (issue 12). Two environments, A and B, each
// with entities, fields of several types, a list field with options, a link, positions, items, a
// custom view, a role with permissions, dossiers with values and links, a file and members. Then,
// for every route the app has:
//   1. the admin of A calls it with B's ids: refused exactly as with ids that do not exist (404;
//      403 where the route is beyond an environment admin), and no answer carries B's data;
//   2. an ordinary member of A calls every admin route with A's ids: 403, and with a garbage
//      body, path and query still 403 with no schema detail (authorised before validation);
//   3. an anonymous caller calls every route that is not public: 401, garbage or not.
// B's rows are the same before and after. A route the table below does not know fails the test.

const MARK_A = 'alphaowntenant';
const MARK_B = 'bravoleakmarker'; // every name, value and summary of B carries it
const UNKNOWN = 2_147_483_000; // an id no row has

interface Tenant {
  environment: number;
  entity: number;
  project: number;
  field: number;
  listField: number;
  option: number;
  dataField: number;
  item: number;
  listItem: number;
  link: number;
  linkUuid: string;
  backlinkUuid: string;
  position: number;
  customView: number;
  query: number;
  block: number;
  role: number;
  dossier: number;
  /** a second dossier of `entity` (what a merge takes with `dossier`) */
  otherDossier: number;
  /** the date field's display item (a series varies it) */
  dateItem: number;
  /** the date field's data field: the entity's gantt project start */
  dateField: number;
  projectDossier: number;
  file: number;
  /** sent by the member to the admin */
  message: number;
  adminUser: number;
  /** the ordinary member, who has an avatar */
  memberUser: number;
  /** invited by e-mail, never signed in */
  invitedUser: number;
  adminName: string;
  admin: TestClient;
  adminPassword: string;
  member: TestClient;
}

type Ids = Omit<Tenant, 'admin' | 'member' | 'adminPassword'>;

/** What a call sends: filled from one tenant's ids. */
interface Call {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
}

interface Case {
  fill: (x: Ids) => Call;
  /**
   * tenant (default): names B's records; refused as unknown ids are.
   * own: about the caller only (their profile, their environments, public settings); nothing of B.
   * session: ends or renews the caller's session; made from a session of its own.
   */
  kind?: 'tenant' | 'own' | 'session';
  /** The status B's ids get when it is not 404 (ranks name ids in a body: 400 as unknown ids). */
  refused?: number;
}

const PNG_PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const text = (value: string) => `data:text/plain;base64,${Buffer.from(value).toString('base64')}`;
const entityTranslations = [{ culture: 'en_GB', name: 'X', name_singular: 'X', name_plural: 'Xs' }];

// Every route of the app: how to fill it with a tenant's ids. Add each new route here.
const ROUTES: Record<string, Case> = {
  // public and own
  'GET /api/config': { kind: 'own', fill: () => ({}) },
  'GET /api/health': { kind: 'own', fill: () => ({}) },
  'POST /api/login_check': {
    kind: 'own',
    fill: (x) => ({ body: { username: x.adminName, password: 'not the password' } }),
  },
  'POST /api/key_login_check': {
    kind: 'own',
    fill: (x) => ({ body: { username: x.adminName, key: 'not-a-key' } }),
  },
  'GET /api/ttl_token': { kind: 'own', fill: () => ({}) },
  'POST /api/refresh_token': { kind: 'session', fill: () => ({}) },
  'POST /api/logout_cookie': { kind: 'session', fill: () => ({}) },
  'GET /api/connect/:provider': { kind: 'own', fill: () => ({ params: { provider: 'google' } }) },
  'GET /api/connect/:provider/check': { kind: 'own', fill: () => ({ params: { provider: 'azure' } }) },
  'POST /api/user/forgot_password': {
    kind: 'own',
    fill: (x) => ({ body: { username: x.adminName, email: 'somebody.else@example.test' } }),
  },
  'GET /api/user/reset_password/:token': {
    kind: 'own',
    fill: () => ({ params: { token: 'no-such-token' } }),
  },
  'POST /api/user/reset_password': {
    kind: 'own',
    fill: () => ({ body: { token: 'no-such-token', password: 'a new password 123' } }),
  },
  'PATCH /api/user/change_password': {
    kind: 'own',
    fill: () => ({ body: { current_password: 'a wrong guess', password: 'a new password 123' } }),
  },
  'GET /api/user/profile': { kind: 'own', fill: () => ({}) },
  'PATCH /api/user/profile': { kind: 'own', fill: () => ({ body: {} }) },
  'PUT /api/user/profile/avatar': {
    kind: 'own',
    fill: () => ({ body: { image: `data:image/png;base64,${PNG_PIXEL}` } }),
  },
  'DELETE /api/user/profile/avatar': { kind: 'own', fill: () => ({}) },
  'GET /api/user/security': { kind: 'own', fill: () => ({}) },
  'POST /api/user/two_factor/setup': { kind: 'own', fill: () => ({}) },
  'POST /api/user/two_factor/confirm': { kind: 'own', fill: () => ({ body: { code: '123456' } }) },
  'POST /api/user/two_factor/recovery_codes': {
    kind: 'own',
    fill: () => ({ body: { password: 'a guess' } }),
  },
  'POST /api/user/two_factor/disable': { kind: 'own', fill: () => ({ body: { password: 'a guess' } }) },
  'GET /api/user/session': { kind: 'own', fill: () => ({}) },
  // ends the caller's other sessions; A's admin keeps the one the matrix uses
  'POST /api/user/session/end_others': { kind: 'own', fill: () => ({}) },
  'GET /api/subscription/active': { kind: 'own', fill: () => ({}) },
  // a contract admin's own subscriptions and orders: beyond an environment admin, refused with 403
  'GET /api/subscription': { fill: () => ({}) },
  'GET /api/order': { fill: () => ({ query: { page: 0 } }) },
  'GET /api/order/:id': { fill: (x) => ({ params: { id: x.environment } }) },
  'POST /api/order': { fill: () => ({ body: { max_environments: 2, max_users: 10, months: 12 } }) },
  'POST /api/order/:id/cancel': { fill: (x) => ({ params: { id: x.environment } }) },
  'GET /api/locale': { kind: 'own', fill: () => ({}) },
  'GET /api/environment': { kind: 'own', fill: () => ({}) },
  'POST /api/environment': { kind: 'own', fill: () => ({ body: { name: 'New', description: 'New one' } }) },
  'GET /api/admin/template': { kind: 'own', fill: () => ({}) },

  // users and environments
  'GET /api/user': { fill: (x) => ({ query: { environment: x.environment } }) },
  'POST /api/user/:id/login_key': { fill: (x) => ({ params: { id: x.adminUser } }) },
  'PUT /api/user/:id/roles': {
    fill: (x) => ({ params: { id: x.memberUser }, body: { roles: ['ROLE_ADMIN'] } }),
  },
  'GET /api/environment/:id/member': { fill: (x) => ({ params: { id: x.environment } }) },
  'GET /api/environment/:id/member/:userId': {
    fill: (x) => ({ params: { id: x.environment, userId: x.memberUser } }),
  },
  'POST /api/environment/:id/member': {
    fill: (x) => ({
      params: { id: x.environment },
      body: { email: `invited.${x.environment}@example.test` },
    }),
  },
  'PATCH /api/environment/:id/member/:userId': {
    fill: (x) => ({
      params: { id: x.environment, userId: x.memberUser },
      body: { roles: [x.role], credentials: ['export'], active: true },
    }),
  },
  'DELETE /api/environment/:id/member/:userId': {
    fill: (x) => ({ params: { id: x.environment, userId: x.memberUser } }),
  },
  'POST /api/environment/:id/member/:userId/invitation': {
    fill: (x) => ({ params: { id: x.environment, userId: x.invitedUser } }),
  },
  'GET /api/environment/:id': { fill: (x) => ({ params: { id: x.environment } }) },
  'GET /api/environment/:id/logo': { fill: (x) => ({ params: { id: x.environment } }) },
  'GET /api/environment/:id/contact': { fill: (x) => ({ params: { id: x.environment } }) },
  'GET /api/environment/:id/security_policy': { fill: (x) => ({ params: { id: x.environment } }) },
  'PUT /api/environment/:id/security_policy': {
    fill: (x) => ({
      params: { id: x.environment },
      body: {
        require_two_factor: false,
        password_min_length: 10,
        password_complexity: false,
        session_hours: null,
      },
    }),
  },
  'GET /images/user/:file': { fill: (x) => ({ params: { file: `${x.memberUser}_64.webp` } }) },
  'GET /api/environment-locale': { fill: (x) => ({ query: { environment: x.environment } }) },
  'POST /api/environment-locale': { fill: (x) => ({ body: { environment: x.environment, code: 'fr_FR' } }) },
  'GET /api/environment/:id/activity': { fill: (x) => ({ params: { id: x.environment } }) },
  'DELETE /api/environment/:id/locale/:code': {
    fill: (x) => ({ params: { id: x.environment, code: 'nl_NL' } }),
  },
  'GET /api/environment/:id/text': {
    fill: (x) => ({ params: { id: x.environment }, query: { locale: 'nl_NL' } }),
  },
  'PUT /api/environment/:id/text/:locale/:key': {
    fill: (x) => ({
      params: { id: x.environment, locale: 'nl', key: 'common.cancel' },
      body: { value: 'Stop' },
    }),
  },
  'DELETE /api/environment/:id/text/:locale/:key': {
    fill: (x) => ({ params: { id: x.environment, locale: 'nl', key: 'common.cancel' } }),
  },

  // configuration
  'GET /api/deffield': { fill: (x) => ({ query: { environment: x.environment } }) },
  'GET /api/deffield/:id': { fill: (x) => ({ params: { id: x.field } }) },
  'POST /api/deffield': { fill: (x) => ({ body: { environment: x.environment, name: 'f', type: 'text' } }) },
  'PATCH /api/deffield/:id': { fill: (x) => ({ params: { id: x.field }, body: { name: 'renamed' } }) },
  'DELETE /api/deffield/:id': { fill: (x) => ({ params: { id: x.field } }) },
  'GET /api/deffieldlist': { fill: (x) => ({ query: { defField: x.listField } }) },
  'GET /api/deffieldlist/:id': { fill: (x) => ({ params: { id: x.option } }) },
  'POST /api/deffieldlist': {
    fill: (x) => ({
      body: {
        environment: x.environment,
        defField: x.listField,
        translations: [{ culture: 'en_GB', text: 'o' }],
      },
    }),
  },
  'PATCH /api/deffieldlist': {
    refused: 400,
    fill: (x) => ({ body: { ranks: [{ id: x.option, rank: 3 }] } }),
  },
  'PATCH /api/deffieldlist/:id': { fill: (x) => ({ params: { id: x.option }, body: { rank: 3 } }) },
  'DELETE /api/deffieldlist/:id': { fill: (x) => ({ params: { id: x.option } }) },
  'GET /api/defdossier': { fill: (x) => ({ query: { environment: x.environment } }) },
  'GET /api/defdossier/:id': { fill: (x) => ({ params: { id: x.entity } }) },
  'GET /api/defdossier/:id/permissions': { fill: (x) => ({ params: { id: x.entity } }) },
  'POST /api/defdossier': {
    fill: (x) => ({ body: { environment: x.environment, translations: entityTranslations } }),
  },
  'PATCH /api/defdossier/rank': {
    refused: 400,
    fill: (x) => ({ body: { ranks: [{ id: x.entity, rank: 3 }] } }),
  },
  'PATCH /api/defdossier/:id': { fill: (x) => ({ params: { id: x.entity }, body: { archivable: true } }) },
  'DELETE /api/defdossier/:id': { fill: (x) => ({ params: { id: x.entity } }) },
  'GET /api/role': { fill: (x) => ({ query: { environment: x.environment } }) },
  'GET /api/role/:id': { fill: (x) => ({ params: { id: x.role } }) },
  'GET /api/role/:id/usage': { fill: (x) => ({ params: { id: x.role } }) },
  'POST /api/role': { fill: (x) => ({ body: { environment: x.environment, name: 'r' } }) },
  'PATCH /api/role/:id': { fill: (x) => ({ params: { id: x.role }, body: { name: 'renamed' } }) },
  // the variant that also takes the role out of members, permissions and rules
  'DELETE /api/role/:id': { fill: (x) => ({ params: { id: x.role }, query: { detach: 'true' } }) },
  'GET /api/permission': { fill: (x) => ({ query: { environment: x.environment } }) },
  'PUT /api/permission': {
    fill: (x) => ({
      body: { environment: x.environment, defDossier: x.entity, role: x.role, actions: ['show', 'edit'] },
    }),
  },
  'GET /api/defdossierdeffield': { fill: (x) => ({ query: { defDossier: x.entity } }) },
  'GET /api/defdossierdeffield/:id': { fill: (x) => ({ params: { id: x.dataField } }) },
  'POST /api/defdossierdeffield': {
    fill: (x) => ({
      body: { environment: x.environment, defDossier: x.entity, defField: x.field, name: 'again' },
    }),
  },
  'PUT /api/defdossierdeffield/:id': {
    fill: (x) => ({ params: { id: x.dataField }, body: { obligatory: true } }),
  },
  'PATCH /api/defdossierdeffield/:id': {
    fill: (x) => ({ params: { id: x.dataField }, body: { obligatory: true } }),
  },
  'DELETE /api/defdossierdeffield/:id': { fill: (x) => ({ params: { id: x.dataField } }) },
  'GET /api/defdossierlink': { fill: (x) => ({ query: { defDossier: x.entity } }) },
  'GET /api/defdossierlink/:id': { fill: (x) => ({ params: { id: x.link } }) },
  'POST /api/defdossierlink': {
    fill: (x) => ({
      body: {
        environment: x.environment,
        defDossier: x.entity,
        childDefDossier: x.project,
        name: 'another',
        typeOfLink: 'select',
      },
    }),
  },
  'PATCH /api/defdossierlink/backlink': {
    fill: (x) => ({
      body: {
        environment: x.environment,
        uuid: x.linkUuid,
        backlinkUuid: x.backlinkUuid,
        defDossier: x.entity,
        childDefDossier: x.project,
      },
    }),
  },
  'PATCH /api/defdossierlink/:id': { fill: (x) => ({ params: { id: x.link }, body: { name: 'renamed' } }) },
  'DELETE /api/defdossierlink/:id': { fill: (x) => ({ params: { id: x.link } }) },
  'GET /api/displayposition': { fill: (x) => ({ query: { defDossier: x.entity } }) },
  'GET /api/displayposition/:id': { fill: (x) => ({ params: { id: x.position } }) },
  'POST /api/displayposition': {
    fill: (x) => ({ body: { environment: x.environment, defDossier: x.entity, type: 'tab' } }),
  },
  'PATCH /api/displayposition/:id': { fill: (x) => ({ params: { id: x.position }, body: { hide: true } }) },
  'DELETE /api/displayposition/:id': { fill: (x) => ({ params: { id: x.position } }) },
  'POST /api/displayposition/credentials': {
    fill: (x) => ({ body: { defDossier: x.entity, ids: [x.position] } }),
  },
  'GET /api/displayitem': { fill: (x) => ({ query: { defDossier: x.entity } }) },
  'GET /api/displayitem/:id': { fill: (x) => ({ params: { id: x.item } }) },
  'POST /api/displayitem': {
    fill: (x) => ({
      body: {
        environment: x.environment,
        defDossier: x.entity,
        defDossierDefField: x.dataField,
        view: 'list',
      },
    }),
  },
  'POST /api/displayitem/auto': { fill: (x) => ({ body: { defDossierDefField: x.dataField } }) },
  'PATCH /api/displayitem/:id': { fill: (x) => ({ params: { id: x.item }, body: { col: 5 } }) },
  'DELETE /api/displayitem/:id': { fill: (x) => ({ params: { id: x.item } }) },
  'GET /api/displaycustomview': { fill: (x) => ({ query: { defDossier: x.entity } }) },
  'GET /api/displaycustomview/:id': { fill: (x) => ({ params: { id: x.customView } }) },
  'POST /api/displaycustomview': {
    fill: (x) => ({ body: { environment: x.environment, defDossier: x.entity, viewName: 'another' } }),
  },
  'PATCH /api/displaycustomview/:id': {
    fill: (x) => ({ params: { id: x.customView }, body: { viewName: 'renamed' } }),
  },
  'DELETE /api/displaycustomview/:id': { fill: (x) => ({ params: { id: x.customView } }) },
  'GET /api/dossierquery': { fill: (x) => ({ query: { environment: x.environment } }) },
  'GET /api/dossierquery/:id': { fill: (x) => ({ params: { id: x.query } }) },
  'POST /api/dossierquery': {
    fill: (x) => ({ body: { environment: x.environment, defDossier: x.entity, data: { combinators: [] } } }),
  },
  'POST /api/dossierquery/count': {
    fill: (x) => ({ body: { environment: x.environment, defDossier: x.entity, data: { combinators: [] } } }),
  },
  'PATCH /api/dossierquery/:id': {
    fill: (x) => ({
      params: { id: x.query },
      body: { translations: [{ culture: 'en_GB', search_name: 'Renamed' }] },
    }),
  },
  'DELETE /api/dossierquery/:id': { fill: (x) => ({ params: { id: x.query } }) },
  'GET /api/mypageblock': { fill: (x) => ({ query: { environment: x.environment } }) },
  'GET /api/mypageblock/:id': { fill: (x) => ({ params: { id: x.block } }) },
  'GET /api/mypageblock/:id/data': { fill: (x) => ({ params: { id: x.block } }) },
  'POST /api/mypageblock': {
    fill: (x) => ({
      body: {
        environment: x.environment,
        type: 'sum_fields',
        defDossier: x.entity,
        settings: { sum_field: x.dataField },
      },
    }),
  },
  'PATCH /api/mypageblock/:id': { fill: (x) => ({ params: { id: x.block }, body: { col: 6 } }) },
  'DELETE /api/mypageblock/:id': { fill: (x) => ({ params: { id: x.block } }) },
  'GET /api/mypage/:environmentId/position': { fill: (x) => ({ params: { environmentId: x.environment } }) },
  'PATCH /api/mypage/:environmentId/position': {
    fill: (x) => ({
      params: { environmentId: x.environment },
      body: { blocks: [{ block: x.block, xPos: 0, yPos: 0, blockWidth: 6, blockHeight: 10 }] },
    }),
  },
  'POST /api/environmentadmin/statistics/contentdossier': {
    fill: (x) => ({ body: { environment: x.environment } }),
  },
  'POST /api/environmentadmin/statistics/user_current': {
    fill: (x) => ({ body: { environment: x.environment } }),
  },
  'POST /api/environmentadmin/statistics/users_most_active': {
    fill: (x) => ({ body: { environment: x.environment } }),
  },

  // dossiers
  'GET /api/contentdossier': {
    fill: (x) => ({ query: { defDossier: x.entity, environment: x.environment } }),
  },
  'GET /api/contentdossier/favorites': { fill: (x) => ({ query: { environment: x.environment } }) },
  'GET /api/contentdossier/search': {
    fill: (x) => ({ query: { environment: x.environment, search: 'value' } }),
  },
  'POST /api/contentdossier': {
    fill: (x) => ({ body: { defDossier: x.entity, values: { [x.item]: 'written' } } }),
  },
  'GET /api/contentdossier/:id': { fill: (x) => ({ params: { id: x.dossier } }) },
  'POST /api/contentdossier/archive': {
    fill: (x) => ({ body: { environment: x.environment, ids: [x.otherDossier] } }),
  },
  'POST /api/contentdossier/dearchive': {
    fill: (x) => ({ body: { environment: x.environment, ids: [x.otherDossier] } }),
  },
  'POST /api/contentdossier/series': {
    fill: (x) => ({
      body: {
        defDossier: x.entity,
        values: { [x.item]: 'series' },
        dateItem: x.dateItem,
        recurrence: { frequency: 'daily', start: '2026-01-01', end: { type: 'count', count: 1 } },
      },
    }),
  },
  'POST /api/contentdossier/merge': {
    fill: (x) => ({
      body: {
        environment: x.environment,
        dossiers: { action: 'keep', ids: [x.dossier, x.otherDossier] },
        mergeDossier: [{ id: x.item, use: 'right' }],
      },
    }),
  },
  'PUT /api/contentdossier/massupdate': {
    fill: (x) => ({
      body: { defDossier: x.entity, dossier_ids: [x.dossier], update_values: { [x.item]: 'mass' } },
    }),
  },
  'PUT /api/contentdossier/:id': {
    fill: (x) => ({ params: { id: x.dossier }, body: { values: { [x.item]: 'overwritten' } } }),
  },
  'PATCH /api/contentdossier/:id': {
    fill: (x) => ({
      params: { id: x.dossier },
      query: { displayCustomView: 'Gantt' },
      body: { values: { [x.dateField]: '2026-01-01' } },
    }),
  },
  'DELETE /api/contentdossier/:id': { fill: (x) => ({ params: { id: x.dossier } }) },
  'POST /api/contentdossier/:id/archive': { fill: (x) => ({ params: { id: x.dossier } }) },
  'POST /api/contentdossier/:id/dearchive': { fill: (x) => ({ params: { id: x.dossier } }) },
  'POST /api/contentdossier/:id/favorite': { fill: (x) => ({ params: { id: x.dossier } }) },
  'DELETE /api/contentdossier/:id/favorite': { fill: (x) => ({ params: { id: x.dossier } }) },
  'POST /api/contentdossier/:id/subscription/:flag': {
    fill: (x) => ({ params: { id: x.dossier, flag: '1' } }),
  },
  'POST /api/contentdossier/subscriptions': {
    fill: (x) => ({ body: { environment: x.environment, ids: [x.dossier] } }),
  },
  'GET /api/contentdossier/export/fields': { fill: (x) => ({ query: { defDossier: x.entity } }) },
  'GET /api/contentdossier/export/csv': {
    fill: (x) => ({ query: { defDossier: x.entity, environment: x.environment } }),
  },
  'GET /api/contentdossier/:id/export/:kind': { fill: (x) => ({ params: { id: x.dossier, kind: 'csv' } }) },
  'GET /api/contentdossier/is-credential-allowed': {
    fill: (x) => ({ query: { defDossier: x.entity, credential: 'edit', dossier: x.dossier } }),
  },
  'GET /api/contentdossier/kanban/board': {
    fill: (x) => ({ query: { defDossier: x.entity, environment: x.environment } }),
  },
  'GET /api/contentdossier/kanban': {
    fill: (x) => ({ query: { defDossier: x.entity, environment: x.environment, option: x.option } }),
  },
  'GET /api/contentdossier/calendar': {
    fill: (x) => ({
      query: { defDossier: x.entity, environment: x.environment, start: '2026-01-01', end: '2026-02-01' },
    }),
  },
  'PATCH /api/contentdossier/:id/calendar': {
    fill: (x) => ({ params: { id: x.dossier }, body: { start: '2026-01-02' } }),
  },
  'POST /api/contentlist/:dossierId/:displayItemId/set': {
    fill: (x) => ({
      params: { dossierId: x.dossier, displayItemId: x.listItem },
      body: { values: [x.option] },
    }),
  },
  'POST /api/contentlist/:dossierId/:displayItemId/add': {
    fill: (x) => ({
      params: { dossierId: x.dossier, displayItemId: x.listItem },
      body: { values: [x.option] },
    }),
  },
  'DELETE /api/contentlist/:dossierId/:displayItemId/remove/:optionId': {
    fill: (x) => ({ params: { dossierId: x.dossier, displayItemId: x.listItem, optionId: x.option } }),
  },

  // files
  'POST /api/file': {
    fill: (x) => ({ body: { name: 'upload.txt', file: text('uploaded'), environment: x.environment } }),
  },
  'PATCH /api/environment/:id': {
    fill: (x) => ({ params: { id: x.environment }, body: { description: 'changed' } }),
  },
  'PUT /api/environment/:id/module/:name': {
    fill: (x) => ({
      params: { id: x.environment, name: 'secureshare' },
      body: { enabled: true, entities: [x.entity] },
    }),
  },
  'GET /api/log': { fill: (x) => ({ query: { environment: x.environment, dossier: x.dossier } }) },
  'GET /api/file/:id': { fill: (x) => ({ params: { id: x.file } }) },
  'GET /api/file/:id/download': { fill: (x) => ({ params: { id: x.file } }) },
  // messages
  'POST /api/message': {
    fill: (x) => ({
      body: {
        environment: x.environment,
        users: [x.memberUser],
        title: 'A note',
        messageText: '<p>About this dossier</p>',
        contentDossier: x.dossier,
        type: 'popup',
      },
    }),
  },
  'GET /api/message': { fill: (x) => ({ query: { environment: x.environment } }) },
  'GET /api/message/unread/count': { fill: (x) => ({ query: { environment: x.environment } }) },
  'GET /api/message/:id': { fill: (x) => ({ params: { id: x.message } }) },
  'POST /api/message/:id/read': { fill: (x) => ({ params: { id: x.message } }) },
};

/** An environment with every kind of record, each named with `mark`. */
async function seedTenant(t: TestApp, mark: string): Promise<Tenant> {
  const admin = await t.signIn({ username: `${mark}_admin_${randomBytes(3).toString('hex')}` });
  const member = await t.signIn({ username: `${mark}_member_${randomBytes(3).toString('hex')}` });
  const environment = await buildEnvironment(t.db, {
    name: `${mark} environment`,
    description: `${mark} description`,
    members: [{ user: admin.user, credentials: ['environment-admin'] }],
  });
  const env = environment.id;
  // a logo of one transparent pixel
  await t.db
    .updateTable('environment')
    .set({ logo: Buffer.from(PNG_PIXEL, 'base64'), logo_mime: 'image/png' })
    .where('id', '=', env)
    .execute();
  const role = await buildRole(t.db, env, `${mark} role`);
  await addMember(t.db, env, {
    user: member.user,
    credentials: ['export', 'quick_search'],
    roleIds: [role.id],
  });
  const invitedAddress = `${mark}_invited_${randomBytes(3).toString('hex')}@example.test`;
  const invited = await buildUser(t.db, {
    username: invitedAddress,
    email: invitedAddress,
    password: null,
    forcePasswordUpdate: true,
  });
  await addMember(t.db, env, { user: invited });
  const avatar = await member.client.request({
    method: 'PUT',
    url: '/api/user/profile/avatar',
    payload: { image: `data:image/png;base64,${PNG_PIXEL}` },
  });
  expect(avatar.statusCode, avatar.body).toBe(200);

  const entity = await buildDefDossier(t.db, env, { name: `${mark} Client` });
  const project = await buildDefDossier(t.db, env, { name: `${mark} Project` });
  const position = (
    await t.db
      .insertInto('display_position')
      .values({
        environment_id: env,
        def_dossier_id: entity.id,
        type: 'main_content',
        rank: 1,
        view_name: null,
        translations: JSON.stringify([{ culture: 'en_GB', name: `${mark} General` }]),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  ).id;
  const projectPosition = (
    await t.db
      .insertInto('display_position')
      .values({
        environment_id: env,
        def_dossier_id: project.id,
        type: 'main_content',
        rank: 1,
        view_name: null,
        translations: JSON.stringify([{ culture: 'en_GB', name: `${mark} Project general` }]),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  ).id;
  const name = await addField(t, entity, position, 'text', `${mark}_name`);
  const notes = await addField(t, entity, position, 'textarea', `${mark}_notes`);
  const amount = await addField(t, entity, position, 'amount', `${mark}_amount`, {
    settings: { decimals: 2 },
  });
  const date = await addField(t, entity, position, 'date', `${mark}_date`);
  // the entity is a gantt project whose start is the date field (PATCH ...?displayCustomView=Gantt)
  await t.db
    .updateTable('def_dossier')
    .set({ settings: { gantt_proj_start_date: date.dataField.id } })
    .where('id', '=', entity.id)
    .execute();
  const colour = await addField(t, entity, position, 'list', `${mark}_colour`);
  const attachment = await addField(t, entity, position, 'file', `${mark}_attachment`);
  const title = await addField(t, project, projectPosition, 'text', `${mark}_title`);
  const option = await buildListOption(t.db, colour.base.id, { text: `${mark} Red` });
  await buildListOption(t.db, colour.base.id, { text: `${mark} Blue` });
  // the kanban and calendar views of the entity (their list calls and the calendar move)
  await t.db
    .updateTable('def_dossier')
    .set({
      settings: sql`settings || ${JSON.stringify({
        kanban_search_field: name.dataField.id,
        kanban_list_field: colour.dataField.id,
        calendar_date_field: date.dataField.id,
        calendar_edit_start: date.dataField.id,
      })}::jsonb`,
    })
    .where('id', '=', entity.id)
    .execute();
  for (const [owner, field] of [
    [entity, name],
    [project, title],
  ] as const) {
    await buildDisplayItem(t.db, owner, { dataFieldId: field.dataField.id, view: 'summary', rank: 1 });
    await buildDisplayItem(t.db, owner, { dataFieldId: field.dataField.id, view: 'list', rank: 1 });
  }
  await t.db
    .updateTable('display_item')
    .set({ translations: JSON.stringify([{ culture: 'en_GB', name: `${mark} label` }]) })
    .where('id', '=', name.item.id)
    .execute();

  // A link Client -> Project with its backlink, and the link's item on the Client's page.
  const link = await buildLink(t.db, entity, project, { name: `${mark}_projects` });
  const backlink = await buildLink(t.db, project, entity, { name: `${mark}_clients` });
  await t.db
    .updateTable('def_dossier_link')
    .set({ back_link_id: backlink.id })
    .where('id', '=', link.id)
    .execute();
  await t.db
    .updateTable('def_dossier_link')
    .set({ back_link_id: link.id })
    .where('id', '=', backlink.id)
    .execute();
  const linkItem = await buildDisplayItem(t.db, entity, { linkId: link.id, positionId: position });
  const customView = await t.db
    .insertInto('display_custom_view')
    .values({ environment_id: env, def_dossier_id: entity.id, view_name: `${mark} view` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const block = await t.db
    .insertInto('mypage_block')
    .values({ environment_id: env, type: 'dashboard', def_dossier_id: entity.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const query = await t.db
    .insertInto('dossier_query')
    .values({
      environment_id: env,
      def_dossier_id: entity.id,
      data: { combinators: [], include_archived: 'both' },
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const owner of [entity, project]) {
    await buildPermission(t.db, owner, role.id, ['show', 'create', 'edit', 'delete', 'archive']);
  }

  const file = await admin.client.post('/api/file', {
    name: `${mark}-notes.txt`,
    file: text(`${mark} file content`),
    environment: env,
  });
  expect(file.statusCode, file.body).toBe(201);
  // an interface text of its own
  const wording = await put(admin.client, `/api/environment/${env}/text/nl/common.close`, {
    value: `${mark} close`,
  });
  expect(wording.statusCode, wording.body).toBe(200);
  const projectDossier = await admin.client.post('/api/contentdossier', {
    defDossier: project.id,
    values: { [title.item.id]: `${mark} project value` },
  });
  expect(projectDossier.statusCode, projectDossier.body).toBe(201);
  const dossier = await admin.client.post('/api/contentdossier', {
    defDossier: entity.id,
    values: {
      [name.item.id]: `${mark} client value`,
      [notes.item.id]: `${mark} notes value`,
      [amount.item.id]: 12.5,
      [date.item.id]: '2026-01-02',
      [colour.item.id]: option.id,
      [attachment.item.id]: file.json().id,
      [linkItem.id]: [projectDossier.json().id],
    },
  });
  expect(dossier.statusCode, dossier.body).toBe(201);
  const otherDossier = await admin.client.post('/api/contentdossier', {
    defDossier: entity.id,
    values: { [name.item.id]: `${mark} other client value` },
  });
  expect(otherDossier.statusCode, otherDossier.body).toBe(201);
  const message = await member.client.post('/api/message', {
    environment: env,
    users: [admin.user.id],
    title: `${mark} message`,
    messageText: `<p>${mark} message text</p>`,
    contentDossier: dossier.json().id,
  });
  expect(message.statusCode, message.body).toBe(201);

  return {
    environment: env,
    entity: entity.id,
    project: project.id,
    field: name.base.id,
    listField: colour.base.id,
    option: option.id,
    dataField: name.dataField.id,
    item: name.item.id,
    listItem: colour.item.id,
    link: link.id,
    linkUuid: link.uuid,
    backlinkUuid: backlink.uuid,
    position,
    customView: customView.id,
    query: query.id,
    block: block.id,
    role: role.id,
    dossier: dossier.json().id,
    otherDossier: otherDossier.json().id,
    dateItem: date.item.id,
    dateField: date.dataField.id,
    projectDossier: projectDossier.json().id,
    file: file.json().id,
    message: message.json().id,
    adminUser: admin.user.id,
    memberUser: member.user.id,
    invitedUser: invited.id,
    adminName: admin.user.username,
    adminPassword: admin.user.password,
    admin: admin.client,
    member: member.client,
  };
}

/** Every id of a tenant replaced by one that does not exist; names kept. */
const unknownIds = (x: Ids): Ids =>
  Object.fromEntries(
    Object.entries(x).map(([key, value]) => [key, typeof value === 'number' ? UNKNOWN : value]),
  ) as unknown as Ids;

const withoutIds = (body: string) => body.replace(/\d+/g, '#');

const GARBAGE: Call = {
  body: { environment: 'garbage', defDossier: [1, 2], values: 'x', ranks: 7, name: { a: 1 } },
  query: { environment: 'x', defDossier: 'x', defField: 'x', id: 'x' },
};

function request(client: TestClient, method: string, pattern: string, call: Call) {
  const url = pattern.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(String(call.params?.[name] ?? 'x')),
  );
  const options: InjectOptions = {
    method: method as InjectOptions['method'],
    url,
    query: Object.fromEntries(Object.entries(call.query ?? {}).map(([k, v]) => [k, String(v)])),
  };
  if (call.body !== undefined) options.payload = call.body as InjectOptions['payload'];
  return client.request(options);
}

const leaksOf = (response: LightMyRequestResponse) =>
  [response.body, JSON.stringify(response.headers)].join('\n').toLowerCase().includes(MARK_B);

/** A digest of every row of the environment: its own row, its members' users and every tenant table. */
async function digest(t: TestApp, environmentId: number): Promise<string> {
  const { rows: tables } = await sql<{ table_name: string }>`
    select c.table_name from information_schema.columns c
    where c.column_name = 'environment_id' and c.table_schema = current_schema()
    order by c.table_name`.execute(t.db);
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = await sql<{ row: unknown }>`
      select to_jsonb(x) as row from ${sql.table(table_name)} x where x.environment_id = ${environmentId}`.execute(
      t.db,
    );
    parts.push(table_name, ...rows.map((r) => JSON.stringify(r.row)).sort());
  }
  const { rows: own } = await sql<{ row: unknown }>`
    select to_jsonb(e) as row from environment e where e.id = ${environmentId}
    union all
    select to_jsonb(u) from app_user u
      join environment_user eu on eu.user_id = u.id and eu.environment_id = ${environmentId}`.execute(t.db);
  parts.push(...own.map((r) => JSON.stringify(r.row)).sort());
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

let t: MailTestApp;
let a: Tenant;
let b: Tenant;
let routes: { method: string; url: string; access: RouteAccess }[];

beforeAll(async () => {
  // invitations send mail
  t = await createTestAppWithMail();
  a = await seedTenant(t, MARK_A);
  b = await seedTenant(t, MARK_B);
  routes = t.app.routeAccessTable.filter((route) => route.declared);
}, 120_000);
afterAll(() => t?.close());

const ADMIN_LEVELS: RouteAccess[] = ['environmentAdmin', 'environmentCreator', 'superAdmin'];
const BEYOND_ENVIRONMENT_ADMIN: RouteAccess[] = ['environmentCreator', 'superAdmin'];
const key = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

describe('route matrix: tenant isolation over every route', () => {
  test('every route of the app has an entry in the matrix, and every entry a route', () => {
    const known = new Set(routes.map(key));
    expect(routes.length).toBeGreaterThan(80);
    expect(
      routes.map(key).filter((route) => !(route in ROUTES)),
      'routes without an entry in ROUTES (route-matrix.test.ts): add one',
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((entry) => !known.has(entry)),
      'entries of routes the app no longer has',
    ).toEqual([]);
  });

  test("the admin of A, calling with B's ids, is refused as if they did not exist and sees nothing of B", async () => {
    const before = await digest(t, b.environment);
    const failures: string[] = [];
    for (const route of routes) {
      const entry = ROUTES[key(route)];
      if (!entry) continue;
      const kind = entry.kind ?? 'tenant';
      // Sign-in calls from a client of their own, so that A's admin stays signed in for the rest.
      let client = route.access === 'public' ? t.client() : a.admin;
      if (kind === 'session') client = await new TestClient(t.app).login(a.adminName, a.adminPassword);
      const response = await request(client, route.method, route.url, entry.fill(b));
      if (leaksOf(response)) failures.push(`${key(route)}: answer carries B's data: ${response.body}`);
      if (kind !== 'tenant') continue;
      if (BEYOND_ENVIRONMENT_ADMIN.includes(route.access)) {
        if (response.statusCode !== 403 || response.body !== JSON.stringify({ message: FORBIDDEN_MESSAGE })) {
          failures.push(`${key(route)}: expected 403, got ${response.statusCode} ${response.body}`);
        }
        continue;
      }
      const expected = entry.refused ?? 404;
      if (response.statusCode !== expected) {
        failures.push(`${key(route)}: expected ${expected}, got ${response.statusCode} ${response.body}`);
        continue;
      }
      // Not a hint that the ids exist: the same answer as for ids that do not (a message may name the id).
      const unknown = await request(a.admin, route.method, route.url, entry.fill(unknownIds(b)));
      const differs =
        unknown.statusCode !== response.statusCode || withoutIds(unknown.body) !== withoutIds(response.body);
      if (differs) {
        failures.push(
          `${key(route)}: B's ids answer ${response.statusCode} ${response.body}, unknown ids ${unknown.statusCode} ${unknown.body}`,
        );
      }
    }
    expect(failures).toEqual([]);
    expect(await digest(t, b.environment), "B's rows changed").toBe(before);
  });

  test("an ordinary member of A is refused every admin route with A's ids, before its input is validated", async () => {
    const beforeA = await digest(t, a.environment);
    const failures: string[] = [];
    const admin = routes.filter((route) => ADMIN_LEVELS.includes(route.access));
    expect(admin.length).toBeGreaterThan(40);
    for (const route of admin) {
      const entry = ROUTES[key(route)];
      if (!entry) continue;
      for (const [what, call] of [
        ["A's ids", entry.fill(a)],
        [
          'garbage',
          { ...GARBAGE, body: ['GET', 'DELETE'].includes(route.method) ? undefined : GARBAGE.body },
        ],
      ] as const) {
        const response = await request(a.member, route.method, route.url, call);
        if (response.statusCode !== 403 || response.body !== JSON.stringify({ message: FORBIDDEN_MESSAGE })) {
          failures.push(
            `${key(route)} with ${what}: expected 403, got ${response.statusCode} ${response.body}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await digest(t, a.environment), "A's rows changed").toBe(beforeA);
  });

  test("control: with its own ids, A's admin reaches the records every call names (so the refusals above are real)", async () => {
    // Last, as it changes A. Deletions are left out: they would take records later calls name.
    const failures: string[] = [];
    for (const route of routes) {
      const entry = ROUTES[key(route)];
      const tenantCall = entry && (entry.kind ?? 'tenant') === 'tenant';
      if (!tenantCall || route.method === 'DELETE' || BEYOND_ENVIRONMENT_ADMIN.includes(route.access))
        continue;
      const response = await request(a.admin, route.method, route.url, entry.fill(a));
      if (response.statusCode >= 300) {
        failures.push(`${key(route)}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  test('an anonymous caller gets 401 from every route that is not public, before its input is validated', async () => {
    const before = [await digest(t, a.environment), await digest(t, b.environment)];
    const anonymous = t.client();
    const failures: string[] = [];
    const guarded = routes.filter((route) => route.access !== 'public');
    expect(guarded.length).toBeGreaterThan(80);
    for (const route of guarded) {
      const entry = ROUTES[key(route)];
      if (!entry) continue;
      for (const [what, call] of [
        ["B's ids", entry.fill(b)],
        [
          'garbage',
          { ...GARBAGE, body: ['GET', 'DELETE'].includes(route.method) ? undefined : GARBAGE.body },
        ],
      ] as const) {
        const response = await request(anonymous, route.method, route.url, call);
        if (response.statusCode !== 401 || response.body.includes('"errors"') || leaksOf(response)) {
          failures.push(
            `${key(route)} with ${what}: expected 401, got ${response.statusCode} ${response.body}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect([await digest(t, a.environment), await digest(t, b.environment)]).toEqual(before);
  });
});
