import { type DossierListBody, GANTT_MESSAGES } from '@dossierbase/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDisplayItem, buildDisplayPosition, buildLink } from '../../../test/entity-factories';
import { expectForbidden, expectNotFound } from '../../../test/entity-test-setup';
import { buildDefDossier } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { addField, dossierSetup, insertDossier, linkDossiers } from './fixture';

// The timeline, gantt and hour registration views of an embedded list (spec doc 3 sections 3, 5, 7):
// the list call with `view` carries the fields of the entity's view settings, and
// PATCH /api/contentdossier/{id}?displayCustomView=Gantt writes a project's or task's dates.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A case with an embedded list of projects; each project has tasks through gantt_task_link. */
async function ganttSetup() {
  const s = await dossierSetup(t);
  const env = s.environment.id;
  const kase = await buildDefDossier(t.db, env, { name: 'Case' });
  const project = await buildDefDossier(t.db, env, { name: 'Plan' });
  const task = await buildDefDossier(t.db, env, { name: 'Task' });
  const projectMain = await buildDisplayPosition(t.db, project, { type: 'main_content' });
  const taskMain = await buildDisplayPosition(t.db, task, { type: 'main_content' });
  const title = await addField(t, project, projectMain.id, 'text', 'title', { view: 'list' });
  const start = await addField(t, project, projectMain.id, 'date', 'start', { obligatory: true });
  const end = await addField(t, project, projectMain.id, 'date', 'end');
  const progress = await addField(t, project, projectMain.id, 'amount', 'progress');
  // a required field the gantt never sends: its edit is not checked by a date move
  await addField(t, project, projectMain.id, 'text', 'budget_code', { obligatory: true });
  // readable by the role's members in no view
  const secret = await addField(t, project, projectMain.id, 'text', 'secret');
  await t.db
    .updateTable('display_item')
    .set({ roles: [s.role.id] })
    .where('id', '=', secret.item.id)
    .execute();
  const taskStart = await addField(t, task, taskMain.id, 'date', 'task_start');
  const taskEnd = await addField(t, task, taskMain.id, 'date', 'task_end');
  const taskProgress = await addField(t, task, taskMain.id, 'amount', 'task_progress');
  const taskTitle = await addField(t, task, taskMain.id, 'text', 'task_title', { view: 'list' });

  const projects = await buildLink(t.db, kase, project, { name: 'projects', typeOfLink: 'embeddedList' });
  const tasks = await buildLink(t.db, project, task, { name: 'tasks', typeOfLink: 'embeddedList' });
  await buildDisplayItem(t.db, kase, { linkId: projects.id, view: 'show/edit' });
  await t.db
    .updateTable('def_dossier')
    .set({
      settings: {
        timeline_field: start.dataField.id,
        timeline_desc_field: secret.dataField.id,
        gantt_task_link: tasks.id,
        gantt_proj_start_date: start.dataField.id,
        gantt_proj_end_date: String(end.dataField.id),
        gantt_proj_progress: progress.dataField.id,
        gantt_task_update_start_date: taskStart.dataField.id,
        gantt_task_update_end_date: taskEnd.dataField.id,
        gantt_task_progress: taskProgress.dataField.id,
      },
    })
    .where('id', '=', project.id)
    .execute();
  const caseId = await insertDossier(t, kase, 'Case 1');
  const p1 = await insertDossier(t, project, 'Build', {
    [title.dataField.id]: 'Build',
    [start.dataField.id]: '2026-03-01',
    [end.dataField.id]: '2026-03-31',
    [progress.dataField.id]: 140,
    [secret.dataField.id]: 'hidden words',
  });
  const p2 = await insertDossier(t, project, 'Undated', { [title.dataField.id]: 'Undated' });
  const t1 = await insertDossier(t, task, 'Dig', {
    [taskTitle.dataField.id]: 'Dig',
    [taskStart.dataField.id]: '2026-03-02',
    [taskEnd.dataField.id]: '2026-03-10',
    [taskProgress.dataField.id]: 50,
  });
  await linkDossiers(t, env, projects.id, [
    [caseId, p1],
    [caseId, p2],
  ]);
  await linkDossiers(t, env, tasks.id, [[p1, t1]]);
  return {
    ...s,
    kase,
    project,
    task,
    fields: { title, start, end, progress, secret, taskStart, taskEnd, taskProgress },
    links: { projects, tasks },
    ids: { caseId, p1, p2, t1 },
  };
}
type Setup = Awaited<ReturnType<typeof ganttSetup>>;

const listUrl = (s: Setup, query: Record<string, string | number>) =>
  `/api/contentdossier?${new URLSearchParams(
    Object.entries({ environment: s.environment.id, ...query }).map(([k, v]): [string, string] => [
      k,
      String(v),
    ]),
  )}`;
const projectsQuery = (s: Setup, view: string) => ({
  defDossier: s.project.id,
  embedded: s.ids.caseId,
  linkId: s.links.projects.id,
  view,
});
/** The value of `dossier`'s data field in a list answer (through the item that carries it). */
const fieldValue = (body: DossierListBody, dossier: number, dataFieldId: number) => {
  const item = body.results.items.find((i) => i.def_dossier_def_field?.id === dataFieldId);
  return item ? body.results.contents[String(dossier)]?.[String(item.id)] : undefined;
};

describe('the list call of the views', () => {
  test('timeline: the date and description fields the user may see', async () => {
    const s = await ganttSetup();
    const admin = await s.admin.get(listUrl(s, projectsQuery(s, 'timeline')));
    expect(admin.statusCode, admin.body).toBe(200);
    const body = admin.json() as DossierListBody;
    expect(body.results.dossiers.map((d) => d.id).sort()).toEqual([s.ids.p1, s.ids.p2].sort());
    expect(fieldValue(body, s.ids.p1, s.fields.start.dataField.id)).toBe('2026-03-01');
    expect(fieldValue(body, s.ids.p1, s.fields.secret.dataField.id)).toBe('hidden words');
    // without view the list carries its list items only
    const plain = (await s.admin.get(listUrl(s, { ...projectsQuery(s, ''), view: 'list' }))).json();
    expect(fieldValue(plain, s.ids.p1, s.fields.start.dataField.id)).toBeUndefined();

    await s.grant(s.project, ['show']);
    await s.grant(s.kase, ['show']);
    const member = await s.member.get(listUrl(s, projectsQuery(s, 'timeline')));
    expect(member.statusCode, member.body).toBe(200);
    expect(fieldValue(member.json(), s.ids.p1, s.fields.start.dataField.id)).toBe('2026-03-01');
    // a field hidden from the member's role never leaves the server
    expect(member.body).not.toContain('hidden words');
    expect(
      (member.json() as DossierListBody).results.items.some(
        (i) => i.def_dossier_def_field?.id === s.fields.secret.dataField.id,
      ),
    ).toBe(false);
  });

  test('gantt: projects with their dates and progress, and a project’s tasks (limit 100)', async () => {
    const s = await ganttSetup();
    const projects = await s.admin.get(listUrl(s, projectsQuery(s, 'Gantt')));
    expect(projects.statusCode, projects.body).toBe(200);
    const body = projects.json() as DossierListBody;
    expect(fieldValue(body, s.ids.p1, s.fields.end.dataField.id)).toBe('2026-03-31');
    expect(fieldValue(body, s.ids.p1, s.fields.progress.dataField.id)).toBe(140);
    expect(fieldValue(body, s.ids.p2, s.fields.start.dataField.id)).toBeNull();
    expect(body.results.gantt).toEqual({ task_link_id: s.links.tasks.id, task_entity_id: s.task.id });

    const tasks = await s.admin.get(
      listUrl(s, {
        defDossier: s.task.id,
        embedded: s.ids.p1,
        linkId: s.links.tasks.id,
        view: 'Gantt',
        limit: 100,
      }),
    );
    expect(tasks.statusCode, tasks.body).toBe(200);
    const taskBody = tasks.json() as DossierListBody;
    expect(taskBody.results.dossiers.map((d) => d.id)).toEqual([s.ids.t1]);
    expect(fieldValue(taskBody, s.ids.t1, s.fields.taskStart.dataField.id)).toBe('2026-03-02');
    expect(fieldValue(taskBody, s.ids.t1, s.fields.taskProgress.dataField.id)).toBe(50);
    expect(taskBody.results.gantt).toBeNull();
  });

  test('each view needs show on the entity; another environment’s ids are refused', async () => {
    const s = await ganttSetup();
    await s.grant(s.kase, ['show']);
    await s.grant(s.project, []);
    for (const view of ['timeline', 'gantt'])
      expectForbidden(await s.member.get(listUrl(s, projectsQuery(s, view))), `member ${view}`);
    const outsider = await s.outsider.get(listUrl(s, projectsQuery(s, 'gantt')));
    expect([403, 404]).toContain(outsider.statusCode);
    expect(outsider.body).not.toContain('Build');
  });

  test('hour registration: only with the environment’s module', async () => {
    const s = await ganttSetup();
    const query = projectsQuery(s, 'hourregistration');
    expectForbidden(await s.admin.get(listUrl(s, query)), 'module off');
    await t.db
      .updateTable('environment')
      .set({ env_modules: ['hourregistration'] })
      .where('id', '=', s.environment.id)
      .execute();
    const on = await s.admin.get(listUrl(s, query));
    expect(on.statusCode, on.body).toBe(200);
    expect((on.json() as DossierListBody).pager.items).toBe(2);
    const env = (await s.admin.get(`/api/environment/${s.environment.id}`)).json();
    expect(env.abilities.canUseHourRegistration).toBe(true);
  });
});

describe('PATCH /api/contentdossier/{id}?displayCustomView=Gantt', () => {
  const patch = (client: Setup['admin'], id: number, values: Record<string, unknown>, view = 'Gantt') =>
    client.request({
      method: 'PATCH',
      url: `/api/contentdossier/${id}?displayCustomView=${view}`,
      payload: { values },
    });
  const stored = async (id: number) =>
    (await t.db.selectFrom('content_dossier').select('values').where('id', '=', id).executeTakeFirstOrThrow())
      .values as Record<string, unknown>;

  test('moves a task and its project, each logged', async () => {
    const s = await ganttSetup();
    const { taskStart, taskEnd, start, end } = s.fields;
    const task = await patch(s.admin, s.ids.t1, {
      [taskStart.dataField.id]: '2026-03-25',
      [taskEnd.dataField.id]: '2026-04-05',
    });
    expect(task.statusCode, task.body).toBe(200);
    expect(task.json()).toEqual({ id: s.ids.t1 });
    const project = await patch(s.admin, s.ids.p1, { [end.dataField.id]: '2026-04-05' });
    expect(project.statusCode, project.body).toBe(200);
    expect(await stored(s.ids.t1)).toMatchObject({
      [taskStart.dataField.id]: '2026-03-25',
      [taskEnd.dataField.id]: '2026-04-05',
    });
    expect(await stored(s.ids.p1)).toMatchObject({
      [start.dataField.id]: '2026-03-01',
      [end.dataField.id]: '2026-04-05',
    });
    const logs = await t.db
      .selectFrom('dossier_log')
      .select(['content_dossier_id', 'type'])
      .where('content_dossier_id', 'in', [s.ids.t1, s.ids.p1])
      .execute();
    expect(logs.map((l) => [Number(l.content_dossier_id), l.type]).sort()).toEqual(
      [
        [s.ids.p1, 'change'],
        [s.ids.t1, 'change'],
      ].sort(),
    );
  });

  test('needs edit on the entity: show alone is refused with the general message', async () => {
    const s = await ganttSetup();
    const values = { [s.fields.taskStart.dataField.id]: '2026-03-03' };
    await s.grant(s.task, ['show']);
    expectForbidden(await patch(s.member, s.ids.t1, values), 'task without edit');
    await s.grant(s.project, ['show']);
    expectForbidden(
      await patch(s.member, s.ids.p1, { [s.fields.start.dataField.id]: '2026-03-02' }),
      'project without edit',
    );
    expect((await stored(s.ids.t1))[s.fields.taskStart.dataField.id]).toBe('2026-03-02');
    await s.grant(s.task, ['show', 'edit']);
    expect((await patch(s.member, s.ids.t1, values)).statusCode).toBe(200);
    expect((await stored(s.ids.t1))[s.fields.taskStart.dataField.id]).toBe('2026-03-03');
  });

  test('another environment’s dossier answers 404, as an unknown one', async () => {
    const s = await ganttSetup();
    const values = { [s.fields.taskStart.dataField.id]: '2026-03-03' };
    expectNotFound(await patch(s.outsider, s.ids.t1, values), 'outsider');
    expectNotFound(await patch(s.admin, 2_147_483_000, values), 'unknown');
    expect((await stored(s.ids.t1))[s.fields.taskStart.dataField.id]).toBe('2026-03-02');
  });

  test('invalid dates, a start after the end and other fields answer 400 keyed by field id', async () => {
    const s = await ganttSetup();
    const { taskStart, taskEnd, taskProgress, start } = s.fields;
    const invalid = await patch(s.admin, s.ids.t1, { [taskStart.dataField.id]: '2026-02-31' });
    expect(invalid.statusCode, invalid.body).toBe(400);
    expect(Object.keys(invalid.json().errors)).toEqual([String(taskStart.dataField.id)]);
    const text = await patch(s.admin, s.ids.t1, { [taskEnd.dataField.id]: 'soon' });
    expect(text.statusCode).toBe(400);
    const after = await patch(s.admin, s.ids.t1, { [taskStart.dataField.id]: '2026-03-20' });
    expect(after.statusCode).toBe(400);
    expect(after.json().errors).toEqual({ [taskStart.dataField.id]: GANTT_MESSAGES.startAfterEnd });
    const other = await patch(s.admin, s.ids.t1, { [taskProgress.dataField.id]: 10 });
    expect(other.json().errors).toEqual({ [taskProgress.dataField.id]: GANTT_MESSAGES.notAGanttDate });
    // a required project field the gantt does not send is no reason to refuse; an empty start is
    const required = await patch(s.admin, s.ids.p1, { [start.dataField.id]: null });
    expect(required.statusCode).toBe(400);
    expect((await patch(s.admin, s.ids.t1, {}, 'Gantt')).statusCode).toBe(400);
    expect(
      (await patch(s.admin, s.ids.t1, { [taskStart.dataField.id]: '2026-03-03' }, 'List')).statusCode,
    ).toBe(400);
    expect(await stored(s.ids.t1)).toMatchObject({
      [taskStart.dataField.id]: '2026-03-02',
      [taskEnd.dataField.id]: '2026-03-10',
    });
  });
});
