import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// The dashboard's date_statistics block (dossiers per week, month or year of a date field or of the
// creation) reads a rollup too (issue 20): kind 'day' counts the dossiers per day, from which every
// period is summed exactly. Its field_id is null; date_field_id is the date field (null: the creation
// date, in Europe/Amsterdam). A funnel reads the existing count rollup by creation month.
// The new_dossier_statistics block asks for the dossiers of the last three weeks: an index on the
// creation time finds them without reading every dossier of the environment.

// The day of a stored date text as the block's SQL reads it: cast(substr(t, 1, 10) as date) when t
// starts like a date, else null; '!' where that cast would fail (as dashboard_rollup_month).
const DAY = sql`
  create function dashboard_rollup_day(t text) returns text language sql immutable as $$
    select case
      when t is null or t !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then null
      when substr(t, 1, 4)::int = 0 or substr(t, 6, 2)::int not between 1 and 12 then '!'
      when substr(t, 9, 2)::int between 1 and extract(day from
        make_date(substr(t, 1, 4)::int, substr(t, 6, 2)::int, 1) + interval '1 month' - interval '1 day')::int
        then substr(t, 1, 10)
      else '!' end
  $$`;

const NUMBER = sql.raw(`'^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]{1,3})?\\s*$'`);

/** The keys of one dossier in one grouping: those of 2026-11-28T1840, with the 'day' kind or without. */
const keys = (withDay: boolean) => sql`
  create or replace function dashboard_rollup_keys(kind text, field_id integer, date_field_id integer,
    row_values jsonb, created_at timestamptz)
  returns table (period text, option text, amount numeric) language sql stable as $$
    select case when date_field_id is null
             then to_char(created_at at time zone 'Europe/Amsterdam', 'YYYY-MM')
             else dashboard_rollup_month(row_values ->> date_field_id::text) end,
           (row_values -> field_id::text) #>> '{}', null::numeric
    where kind = 'count'
    union all
    select null, null, case when v ~ ${NUMBER} then v::numeric end
    from (select row_values ->> field_id::text as v) s where kind = 'sum'
    union all
    select '!', null, null
    from (select row_values ->> field_id::text as v) s
    where kind = 'sum' and v !~ ${NUMBER}
    ${
      withDay
        ? sql`union all
    select case when date_field_id is null
             then to_char(created_at at time zone 'Europe/Amsterdam', 'YYYY-MM-DD')
             else dashboard_rollup_day(row_values ->> date_field_id::text) end,
           null, null::numeric
    where kind = 'day'`
        : sql``
    }
  $$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table dashboard_rollup drop constraint dashboard_rollup_kind_check`.execute(db);
  await sql`alter table dashboard_rollup alter column field_id drop not null`.execute(db);
  await sql`alter table dashboard_rollup add constraint dashboard_rollup_kind_check
    check (kind in ('count', 'sum', 'day') and (field_id is null) = (kind = 'day'))`.execute(db);
  await DAY.execute(db);
  await keys(true).execute(db);
  await sql`create index content_dossier_created_idx on content_dossier (environment_id, created_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index content_dossier_created_idx`.execute(db);
  await sql`delete from dashboard_rollup where kind = 'day'`.execute(db);
  await keys(false).execute(db);
  await sql`drop function dashboard_rollup_day(text)`.execute(db);
  await sql`alter table dashboard_rollup drop constraint dashboard_rollup_kind_check`.execute(db);
  await sql`alter table dashboard_rollup alter column field_id set not null`.execute(db);
  await sql`alter table dashboard_rollup add constraint dashboard_rollup_kind_check
    check (kind in ('count', 'sum'))`.execute(db);
}
