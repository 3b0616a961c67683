import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Rollups of the dashboard blocks that count or sum a whole entity (issue 20): a count_list_options
// block grouped by month of a date field (or of the creation) and a sum_fields block read a few rows
// here instead of scanning every dossier. A rollup is earned when a block first asks for its grouping
// (created, then filled once by the application without holding writers back; ready from then on) and
// dropped when no block has read it for a while.
//
// dashboard_rollup: one grouping of one entity. kind 'count': field_id is the list field and
// date_field_id the date field (null: the creation date, month in Europe/Amsterdam). kind 'sum':
// field_id is the summed field.
// dashboard_rollup_delta: signed counts and sums per grouping key, inserted by the statement triggers
// below in the transaction of every write and never updated, so two writers never touch one row (no
// lost update, no lock between them, no deadlock) and a rolled-back write leaves nothing. The
// application fills a new rollup, sums the deltas per key and now and then compacts them into one row
// per key.
// The key: archived; period ('YYYY-MM'; null without a date; '!' a text the SQL's date cast would
// refuse); option (the list value's text as the block's SQL reads it). A sum row counts every dossier
// (total) and sums the values (amount); its '!' row counts values the SQL's numeric cast would refuse.
// A reader that finds a '!' row answers by the SQL, which then behaves as it always did.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table dashboard_rollup (
      environment_id integer not null references environment (id) on delete cascade,
      id integer generated always as identity,
      def_dossier_id integer not null references def_dossier (id) on delete cascade,
      kind text not null check (kind in ('count', 'sum')),
      field_id integer not null references def_dossier_def_field (id) on delete cascade,
      date_field_id integer references def_dossier_def_field (id) on delete cascade,
      ready boolean not null default false,
      used_at timestamptz not null default now(),
      primary key (environment_id, id),
      unique nulls not distinct (environment_id, def_dossier_id, kind, field_id, date_field_id)
    )`.execute(db);
  await sql`create index dashboard_rollup_date_field on dashboard_rollup (date_field_id)`.execute(db);
  await sql`create index dashboard_rollup_field on dashboard_rollup (field_id)`.execute(db);
  await sql`
    create table dashboard_rollup_delta (
      environment_id integer not null,
      rollup_id integer not null,
      archived boolean not null,
      period text,
      option text,
      total bigint not null,
      amount numeric
    )`.execute(db);
  await sql`create index dashboard_rollup_delta_key on dashboard_rollup_delta (environment_id, rollup_id, archived)`.execute(
    db,
  );

  // The month of a stored date text as the block's SQL reads it: to_char(cast(substr(t, 1, 10) as
  // date), 'YYYY-MM') when t starts like a date, else null; '!' where that cast would fail.
  await sql`
    create function dashboard_rollup_month(t text) returns text language sql immutable as $$
      select case
        when t is null or t !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then null
        when substr(t, 1, 4)::int = 0 or substr(t, 6, 2)::int not between 1 and 12 then '!'
        when substr(t, 9, 2)::int between 1 and extract(day from
          make_date(substr(t, 1, 4)::int, substr(t, 6, 2)::int, 1) + interval '1 month' - interval '1 day')::int
          then substr(t, 1, 7)
        else '!' end
    $$`.execute(db);
  // The keys of one dossier in one grouping. A sum row's amount is its value as numeric, when the
  // numeric cast reads it exactly so (plain decimal notation); anything else is marked '!'.
  await sql`
    create function dashboard_rollup_keys(kind text, field_id integer, date_field_id integer,
      row_values jsonb, created_at timestamptz)
    returns table (period text, option text, amount numeric) language sql stable as $$
      select case when date_field_id is null
               then to_char(created_at at time zone 'Europe/Amsterdam', 'YYYY-MM')
               else dashboard_rollup_month(row_values ->> date_field_id::text) end,
             (row_values -> field_id::text) #>> '{}', null::numeric
      where kind = 'count'
      union all
      select null, null, case when v ~ '^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]{1,3})?\\s*$'
                              then v::numeric end
      from (select row_values ->> field_id::text as v) s where kind = 'sum'
      union all
      select '!', null, null
      from (select row_values ->> field_id::text as v) s
      where kind = 'sum' and v !~ '^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]{1,3})?\\s*$'
    $$`.execute(db);

  // No foreign key to dashboard_rollup: its check would lock the rollup row, and a write racing the
  // deletion of a rollup would fail on it. A deleted rollup's deltas go with it here; a racing write's
  // deltas of a deleted rollup are never read (ids are not reused) and are swept by the application.
  await sql`
    create function forget_rollup_deltas() returns trigger language plpgsql as $$
    begin
      delete from dashboard_rollup_delta d using old_rows o
      where d.environment_id = o.environment_id and d.rollup_id = o.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger dashboard_rollup_deleted after delete on dashboard_rollup
    referencing old table as old_rows for each statement execute function forget_rollup_deltas()`.execute(db);

  const apply = (changed: ReturnType<typeof sql>) => sql`
    insert into dashboard_rollup_delta (environment_id, rollup_id, archived, period, option, total, amount)
    select ch.environment_id, r.id, ch.archived, k.period, k.option, sum(ch.delta), sum(ch.delta * k.amount)
    from (${changed}) ch
    join dashboard_rollup r on r.environment_id = ch.environment_id and r.def_dossier_id = ch.def_dossier_id
    cross join lateral dashboard_rollup_keys(r.kind, r.field_id, r.date_field_id, ch."values", ch.created_at) k
    group by 1, 2, 3, 4, 5
    having sum(ch.delta) <> 0 or coalesce(sum(ch.delta * k.amount), 0) <> 0`;
  const columns = sql`environment_id, def_dossier_id, archived, "values", created_at`;
  await sql`
    create function roll_up_dossiers() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${apply(sql`select ${columns}, 1 as delta from new_rows`)};
      elsif tg_op = 'DELETE' then
        ${apply(sql`select ${columns}, -1 as delta from old_rows`)};
      else
        ${apply(sql`select ${columns}, 1 as delta from new_rows union all select ${columns}, -1 from old_rows`)};
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger content_dossier_insert_rollups after insert on content_dossier
    referencing new table as new_rows for each statement execute function roll_up_dossiers()`.execute(db);
  await sql`create trigger content_dossier_update_rollups after update on content_dossier
    referencing old table as old_rows new table as new_rows for each statement execute function roll_up_dossiers()`.execute(
    db,
  );
  await sql`create trigger content_dossier_delete_rollups after delete on content_dossier
    referencing old table as old_rows for each statement execute function roll_up_dossiers()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const trigger of [
    'content_dossier_insert_rollups',
    'content_dossier_update_rollups',
    'content_dossier_delete_rollups',
  ])
    await sql`drop trigger ${sql.id(trigger)} on content_dossier`.execute(db);
  await sql`drop trigger dashboard_rollup_deleted on dashboard_rollup`.execute(db);
  await sql`drop function forget_rollup_deltas()`.execute(db);
  await sql`drop function roll_up_dossiers()`.execute(db);
  await sql`drop function dashboard_rollup_keys(text, integer, integer, jsonb, timestamptz)`.execute(db);
  await sql`drop function dashboard_rollup_month(text)`.execute(db);
  await sql`drop table dashboard_rollup_delta`.execute(db);
  await sql`drop table dashboard_rollup`.execute(db);
}
