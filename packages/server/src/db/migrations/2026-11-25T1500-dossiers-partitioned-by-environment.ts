import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// content_dossier, content_link and dossier_log become LIST-partitioned by environment_id, one
// partition per environment (content_dossier_e<id>, content_link_e<id>, dossier_log_e<id>), made by
// a trigger on environment so that no code path can forget it. Each entity's field indexes then sit on
// its environment's partition only: a query of one environment is planned and run without looking at
// another tenant's indexes or rows. Every key and foreign key starts with environment_id, so the same
// schema can be distributed by environment (Citus). Rows move in place; ids and sequences are kept.
// The entities' cdx_/cds_ indexes are not copied: the server builds them again on the partition the
// first time an entity is listed (query/field-indexes.ts), and sort indexes are learnt again from use.

const OLD_INDEXES = [
  'content_dossier_list_idx',
  'content_dossier_summaries_trgm_idx',
  'content_dossier_summary_trgm_idx',
  'content_dossier_values_idx',
  'content_link_child_idx',
  'dossier_log_dossier_idx',
];
const TABLES = ['content_dossier', 'content_link', 'dossier_log'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ schema: string }>`
    select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(
    db,
  );
  const trigramOps = sql`${sql.id(rows[0].schema)}.gin_trgm_ops`;

  // 1. The old tables step aside with everything that bears a name the new tables take.
  for (const [table, constraint] of [
    ['favourite', 'favourite_content_dossier_id_fkey'],
    ['dossier_subscription', 'dossier_subscription_content_dossier_id_fkey'],
  ])
    await sql`alter table ${sql.id(table)} drop constraint ${sql.id(constraint)}`.execute(db);
  await sql`drop statistics if exists content_dossier_summaries_text_stats`.execute(db);
  const learnt = await sql<{ name: string; kind: string }>`
    select c.relname as name, c.relkind::text as kind from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relname ~ '^cd[xs]_[0-9]'`.execute(db);
  for (const { name } of learnt.rows) await sql`drop index if exists ${sql.id(name)}`.execute(db);
  const statistics = await sql<{ name: string }>`
    select stxname as name from pg_statistic_ext
    where stxnamespace = current_schema()::regnamespace and stxname ~ '^cd[xs]s?_[0-9]'`.execute(db);
  for (const { name } of statistics.rows) await sql`drop statistics if exists ${sql.id(name)}`.execute(db);
  for (const index of OLD_INDEXES) await sql`drop index ${sql.id(index)}`.execute(db);
  for (const table of TABLES) {
    await sql`alter sequence ${sql.id(`${table}_id_seq`)} owned by none`.execute(db);
    await sql`alter table ${sql.id(table)} rename to ${sql.id(`${table}_old`)}`.execute(db);
    await sql`alter table ${sql.id(`${table}_old`)} rename constraint ${sql.id(`${table}_pkey`)} to ${sql.id(`${table}_old_pkey`)}`.execute(
      db,
    );
  }
  await sql`alter table content_link_old rename constraint content_link_key to content_link_old_key`.execute(
    db,
  );

  // 2. The partitioned tables, keys led by environment_id.
  await sql`
    create table content_dossier (
      id bigint not null default nextval('content_dossier_id_seq'),
      environment_id integer not null,
      def_dossier_id integer not null,
      summary text not null default '',
      archived boolean not null default false,
      "values" jsonb not null default '{}'::jsonb,
      created_by integer,
      modified_by integer,
      created_at timestamptz not null default now(),
      modified_at timestamptz not null default now(),
      summaries jsonb,
      constraint content_dossier_pkey primary key (environment_id, id)
    ) partition by list (environment_id)`.execute(db);
  await sql`
    create table content_link (
      id bigint not null default nextval('content_link_id_seq'),
      environment_id integer not null,
      link_id integer not null,
      parent_id bigint not null,
      child_id bigint not null,
      rank integer not null default 0,
      constraint content_link_pkey primary key (environment_id, id),
      constraint content_link_key unique (environment_id, link_id, parent_id, child_id)
    ) partition by list (environment_id)`.execute(db);
  await sql`
    create table dossier_log (
      id bigint not null default nextval('dossier_log_id_seq'),
      environment_id integer not null,
      content_dossier_id bigint not null,
      def_dossier_id integer not null,
      type text not null,
      user_id integer,
      username text,
      changes jsonb not null default '[]'::jsonb,
      created_at timestamptz not null default now(),
      constraint dossier_log_pkey primary key (environment_id, id),
      constraint dossier_log_type_check
        check (type in ('create', 'shown', 'change', 'archive', 'delete', 'secureshare'))
    ) partition by list (environment_id)`.execute(db);
  for (const table of TABLES)
    await sql`alter sequence ${sql.id(`${table}_id_seq`)} owned by ${sql.id(table)}.id`.execute(db);

  // 3. One partition of each per environment, now and for every environment created from now on.
  await sql`
    create function create_environment_partitions(environment integer) returns void language plpgsql as $$
    begin
      execute format('create table if not exists %I partition of content_dossier for values in (%s)',
        'content_dossier_e' || environment, environment);
      -- the planner reads the statistics of the partition a query is pruned to: these belong there
      execute format('create statistics if not exists %I on ((summaries::text)) from %I',
        'content_dossier_e' || environment || '_summaries_text_stats', 'content_dossier_e' || environment);
      execute format('create table if not exists %I partition of content_link for values in (%s)',
        'content_link_e' || environment, environment);
      execute format('create table if not exists %I partition of dossier_log for values in (%s)',
        'dossier_log_e' || environment, environment);
    end $$`.execute(db);
  await sql`
    create function create_partitions_of_new_environment() returns trigger language plpgsql as $$
    begin
      perform create_environment_partitions(new.id);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger environment_partitions after insert on environment
    for each row execute function create_partitions_of_new_environment()`.execute(db);
  await sql`select create_environment_partitions(id) from environment order by id`.execute(db);

  // 4. The rows move (before indexes and triggers, which would each cost per row).
  await sql`
    insert into content_dossier (id, environment_id, def_dossier_id, summary, archived, "values",
      created_by, modified_by, created_at, modified_at, summaries)
    select id, environment_id, def_dossier_id, summary, archived, "values",
      created_by, modified_by, created_at, modified_at, summaries
    from content_dossier_old`.execute(db);
  await sql`
    insert into content_link (id, environment_id, link_id, parent_id, child_id, rank)
    select id, environment_id, link_id, parent_id, child_id, rank from content_link_old`.execute(db);
  await sql`
    insert into dossier_log (id, environment_id, content_dossier_id, def_dossier_id, type, user_id,
      username, changes, created_at)
    select id, environment_id, content_dossier_id, def_dossier_id, type, user_id, username, changes, created_at
    from dossier_log_old`.execute(db);
  await sql`drop table content_link_old, dossier_log_old, content_dossier_old`.execute(db);

  // 5. Indexes (each partition gets its own), foreign keys, triggers.
  await sql`create index content_dossier_list_idx on content_dossier (environment_id, def_dossier_id, archived, id)`.execute(
    db,
  );
  await sql`create index content_dossier_values_idx on content_dossier using gin ("values" jsonb_path_ops)`.execute(
    db,
  );
  await sql`create index content_dossier_summary_trgm_idx on content_dossier using gin (summary ${trigramOps})`.execute(
    db,
  );
  await sql`create index content_dossier_summaries_trgm_idx on content_dossier
    using gin ((summaries::text) ${trigramOps}) where summaries is not null`.execute(db);
  await sql`create index content_link_child_idx on content_link (environment_id, link_id, child_id)`.execute(
    db,
  );
  await sql`create index dossier_log_dossier_idx on dossier_log (environment_id, content_dossier_id, created_at desc)`.execute(
    db,
  );

  const foreignKeys: [table: string, name: string, definition: string][] = [
    [
      'content_dossier',
      'environment_id_fkey',
      'foreign key (environment_id) references environment (id) on delete cascade',
    ],
    [
      'content_dossier',
      'def_dossier_id_fkey',
      'foreign key (def_dossier_id) references def_dossier (id) on delete cascade',
    ],
    [
      'content_dossier',
      'created_by_fkey',
      'foreign key (created_by) references app_user (id) on delete set null',
    ],
    [
      'content_dossier',
      'modified_by_fkey',
      'foreign key (modified_by) references app_user (id) on delete set null',
    ],
    [
      'content_link',
      'environment_id_fkey',
      'foreign key (environment_id) references environment (id) on delete cascade',
    ],
    [
      'content_link',
      'link_id_fkey',
      'foreign key (link_id) references def_dossier_link (id) on delete cascade',
    ],
    [
      'content_link',
      'parent_id_fkey',
      'foreign key (environment_id, parent_id) references content_dossier (environment_id, id) on delete cascade',
    ],
    [
      'content_link',
      'child_id_fkey',
      'foreign key (environment_id, child_id) references content_dossier (environment_id, id) on delete cascade',
    ],
    [
      'dossier_log',
      'environment_id_fkey',
      'foreign key (environment_id) references environment (id) on delete cascade',
    ],
    ['dossier_log', 'user_id_fkey', 'foreign key (user_id) references app_user (id) on delete set null'],
    [
      'favourite',
      'content_dossier_id_fkey',
      'foreign key (environment_id, content_dossier_id) references content_dossier (environment_id, id) on delete cascade',
    ],
    [
      'dossier_subscription',
      'content_dossier_id_fkey',
      'foreign key (environment_id, content_dossier_id) references content_dossier (environment_id, id) on delete cascade',
    ],
  ];
  for (const [table, name, definition] of foreignKeys)
    await sql`alter table ${sql.id(table)} add constraint ${sql.id(`${table}_${name}`)} ${sql.raw(definition)}`.execute(
      db,
    );

  // A link's dossiers are found on its own environment's partition, by their whole key: with
  // `d.id in (parent_id, child_id)` the planner could only use environment_id as the index condition
  // and read every dossier of the environment for each link written.
  await sql`
    create or replace function bump_entity_data_version_of_links() returns trigger language plpgsql as $$
    begin
      insert into entity_data_version as v (def_dossier_id, version)
      select distinct d.def_dossier_id, 1
      from (select environment_id, parent_id as id from changed_rows
            union select environment_id, child_id from changed_rows) l
      join content_dossier d on d.environment_id = l.environment_id and d.id = l.id
      where exists (select 1 from def_dossier e where e.id = d.def_dossier_id)
      order by d.def_dossier_id
      on conflict (def_dossier_id) do update set version = v.version + 1;
      return null;
    end $$`.execute(db);
  for (const [table, fn] of [
    ['content_dossier', 'bump_entity_data_version_of_dossiers'],
    ['content_link', 'bump_entity_data_version_of_links'],
  ] as const) {
    for (const [event, transition] of [
      ['insert', 'new'],
      ['update', 'new'],
      ['delete', 'old'],
    ] as const) {
      await sql`
        create trigger ${sql.id(`${table}_${event}_data_version`)}
        after ${sql.raw(event)} on ${sql.id(table)}
        referencing ${sql.raw(transition)} table as changed_rows
        for each statement execute function ${sql.id(fn)}()`.execute(db);
    }
  }
  for (const table of TABLES) await sql`analyze ${sql.id(table)}`.execute(db);
}

export async function down(): Promise<void> {
  // Moving a partitioned database back into one table per kind is not offered: restore a backup.
  throw new Error('2026-11-25T1500-dossiers-partitioned-by-environment cannot be undone');
}
