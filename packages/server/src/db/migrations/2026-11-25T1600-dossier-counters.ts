import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Counters of every entity's dossiers, and of the options chosen in its list and tree fields, kept by
// statement triggers in the transaction of every write (so no write path can forget them and no
// reader sees a count of data that is not committed). A count grouped by such a field over the whole
// entity reads a few counter rows instead of scanning every dossier.
//
// option_count_field: the data fields whose options are counted. A field counts from its creation
// (it holds no value yet); existing ones are counted below. A field whose type changes loses its
// counters (its values no longer are options), and one that becomes a list or tree is not counted:
// lists fall back to counting by a scan for it.
// option_count: per field, archived state and option, how many dossiers. `many` tells an element of
// a multiple choice (an array) from a single choice; option -1 (no option has that id) counts the
// dossiers that hold any value for the field, as count(value) does.
const OPTION_TYPES = sql`('list', 'tree')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table entity_dossier_count (
      environment_id integer not null references environment (id) on delete cascade,
      def_dossier_id integer not null references def_dossier (id) on delete cascade,
      archived boolean not null,
      total bigint not null,
      primary key (environment_id, def_dossier_id, archived)
    )`.execute(db);
  await sql`
    create table option_count_field (
      environment_id integer not null references environment (id) on delete cascade,
      def_dossier_id integer not null references def_dossier (id) on delete cascade,
      field_id integer not null references def_dossier_def_field (id) on delete cascade,
      primary key (environment_id, def_dossier_id, field_id)
    )`.execute(db);
  await sql`
    create table option_count (
      environment_id integer not null,
      def_dossier_id integer not null,
      field_id integer not null,
      archived boolean not null,
      many boolean not null,
      option_id bigint not null,
      total bigint not null,
      primary key (environment_id, def_dossier_id, field_id, archived, many, option_id),
      foreign key (environment_id, def_dossier_id, field_id)
        references option_count_field (environment_id, def_dossier_id, field_id) on delete cascade
    )`.execute(db);

  // The counted options of one changed row (its values and a counted field), as the list's scan reads
  // them: a whole number chosen alone, or each whole number of an array.
  await sql`
    create function dossier_options(row_values jsonb, field_id integer)
    returns table (many boolean, option_id bigint) language sql immutable as $$
      select false, -1::bigint where row_values ? field_id::text
      union all
      select false, (row_values ->> field_id::text)::bigint
      where jsonb_typeof(row_values -> field_id::text) = 'number'
        and (row_values ->> field_id::text) ~ '^[0-9]{1,15}$'
      union all
      select true, e::text::bigint
      from jsonb_array_elements(case jsonb_typeof(row_values -> field_id::text)
                                when 'array' then row_values -> field_id::text else '[]'::jsonb end) e
      where jsonb_typeof(e) = 'number' and e::text ~ '^[0-9]{1,15}$'
    $$`.execute(db);

  // One function for the three events: each branch names only the transition tables its event has.
  // An entity being deleted takes its dossiers along: they are not counted for it any more (its
  // counted fields are gone with it; its total is skipped, as the data version of 2026-11-24T1000 is).
  // Rows are upserted in key order, so concurrent writers take the counter rows' locks in one order.
  const apply = (changed: ReturnType<typeof sql>) => sql`
    with changed as (${changed}),
    totals as (
      insert into entity_dossier_count as c (environment_id, def_dossier_id, archived, total)
      select environment_id, def_dossier_id, archived, sum(delta) from changed c
      where exists (select 1 from def_dossier e where e.id = c.def_dossier_id)
      group by 1, 2, 3 having sum(delta) <> 0 order by 1, 2, 3
      on conflict (environment_id, def_dossier_id, archived) do update set total = c.total + excluded.total
    )
    insert into option_count as c (environment_id, def_dossier_id, field_id, archived, many, option_id, total)
    select ch.environment_id, ch.def_dossier_id, f.field_id, ch.archived, o.many, o.option_id, sum(ch.delta)
    from changed ch
    join option_count_field f on f.environment_id = ch.environment_id and f.def_dossier_id = ch.def_dossier_id
    cross join lateral dossier_options(ch."values", f.field_id) o
    group by 1, 2, 3, 4, 5, 6 having sum(ch.delta) <> 0 order by 1, 2, 3, 4, 5, 6
    on conflict (environment_id, def_dossier_id, field_id, archived, many, option_id)
      do update set total = c.total + excluded.total`;
  const columns = sql`environment_id, def_dossier_id, archived, "values"`;
  await sql`
    create function count_dossiers() returns trigger language plpgsql as $$
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
  await sql`create trigger content_dossier_insert_counts after insert on content_dossier
    referencing new table as new_rows for each statement execute function count_dossiers()`.execute(db);
  await sql`create trigger content_dossier_update_counts after update on content_dossier
    referencing old table as old_rows new table as new_rows for each statement execute function count_dossiers()`.execute(
    db,
  );
  await sql`create trigger content_dossier_delete_counts after delete on content_dossier
    referencing old table as old_rows for each statement execute function count_dossiers()`.execute(db);

  // A new data field of a list or tree type is counted from the start; one that changes field, or whose
  // field changes type away from the option types, is no longer.
  await sql`
    create function count_new_option_field() returns trigger language plpgsql as $$
    begin
      insert into option_count_field (environment_id, def_dossier_id, field_id)
      select new.environment_id, new.def_dossier_id, new.id
      from def_field t where t.id = new.def_field_id and t.type in ${OPTION_TYPES}
      on conflict do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger def_dossier_def_field_counted after insert on def_dossier_def_field
    for each row execute function count_new_option_field()`.execute(db);
  await sql`
    create function forget_option_field_counts() returns trigger language plpgsql as $$
    begin
      delete from option_count_field where field_id = old.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger def_dossier_def_field_uncounted after update of def_field_id on def_dossier_def_field
    for each row when (old.def_field_id is distinct from new.def_field_id)
    execute function forget_option_field_counts()`.execute(db);
  await sql`
    create function forget_option_type_counts() returns trigger language plpgsql as $$
    begin
      delete from option_count_field
      where field_id in (select id from def_dossier_def_field where def_field_id = new.id);
      return null;
    end $$`.execute(db);
  await sql`create trigger def_field_type_uncounted after update of type on def_field
    for each row when (old.type in ${OPTION_TYPES} and new.type not in ${OPTION_TYPES})
    execute function forget_option_type_counts()`.execute(db);

  // What exists today: counted once, here.
  await sql`
    insert into entity_dossier_count (environment_id, def_dossier_id, archived, total)
    select environment_id, def_dossier_id, archived, count(*) from content_dossier group by 1, 2, 3`.execute(
    db,
  );
  await sql`
    insert into option_count_field (environment_id, def_dossier_id, field_id)
    select f.environment_id, f.def_dossier_id, f.id
    from def_dossier_def_field f join def_field t on t.id = f.def_field_id
    where t.type in ${OPTION_TYPES}`.execute(db);
  await sql`
    insert into option_count (environment_id, def_dossier_id, field_id, archived, many, option_id, total)
    select d.environment_id, d.def_dossier_id, f.field_id, d.archived, o.many, o.option_id, count(*)
    from option_count_field f
    join content_dossier d on d.environment_id = f.environment_id and d.def_dossier_id = f.def_dossier_id
    cross join lateral dossier_options(d."values", f.field_id) o
    group by 1, 2, 3, 4, 5, 6`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [trigger, table] of [
    ['content_dossier_insert_counts', 'content_dossier'],
    ['content_dossier_update_counts', 'content_dossier'],
    ['content_dossier_delete_counts', 'content_dossier'],
    ['def_dossier_def_field_counted', 'def_dossier_def_field'],
    ['def_dossier_def_field_uncounted', 'def_dossier_def_field'],
    ['def_field_type_uncounted', 'def_field'],
  ])
    await sql`drop trigger ${sql.id(trigger)} on ${sql.id(table)}`.execute(db);
  for (const fn of [
    'count_dossiers()',
    'count_new_option_field()',
    'forget_option_field_counts()',
    'forget_option_type_counts()',
    'dossier_options(jsonb, integer)',
  ])
    await sql`drop function ${sql.raw(fn)}`.execute(db);
  await sql`drop table option_count`.execute(db);
  await sql`drop table option_count_field`.execute(db);
  await sql`drop table entity_dossier_count`.execute(db);
}
