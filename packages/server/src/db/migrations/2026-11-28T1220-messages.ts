import { type Kysely, sql } from 'kysely';

// Frozen: never import application code here, never edit once landed.
// Messages between the members of an environment (spec doc 2, "Message"), each with its recipients and
// when each read it, and the notices a dossier's subscribers get when someone else changes, archives or
// deletes it: a notice carries what it says (event, the summary the subscriber may see, who did it), to
// be worded in the reader's language; subscription_notice holds back a second notice about a dossier
// for 10 minutes. Keys start with environment_id, as every tenant table's. A message keeps the id of
// the dossier it is about without a foreign key: it outlives the dossier (a deletion notice).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table message (
      id bigserial,
      environment_id integer not null references environment (id) on delete cascade,
      sender_id integer references app_user (id) on delete set null,
      title text not null,
      message_text text not null,
      type text not null default 'normal' check (type in ('normal', 'popup')),
      content_dossier_id bigint,
      notice jsonb,
      created_at timestamptz not null default now(),
      primary key (environment_id, id)
    )`.execute(db);
  await sql`create index message_sender on message (environment_id, sender_id, id desc)`.execute(db);
  await sql`
    create table message_recipient (
      environment_id integer not null,
      message_id bigint not null,
      user_id integer not null references app_user (id) on delete cascade,
      read_at timestamptz,
      primary key (environment_id, message_id, user_id),
      foreign key (environment_id, message_id) references message (environment_id, id) on delete cascade
    )`.execute(db);
  await sql`create index message_recipient_inbox on message_recipient (environment_id, user_id, message_id desc)`.execute(
    db,
  );
  // the unread count, asked on every page and pushed after every message
  await sql`create index message_recipient_unread on message_recipient (environment_id, user_id)
    where read_at is null`.execute(db);
  await sql`
    create table subscription_notice (
      environment_id integer not null references environment (id) on delete cascade,
      user_id integer not null references app_user (id) on delete cascade,
      content_dossier_id bigint not null,
      sent_at timestamptz not null default now(),
      primary key (environment_id, user_id, content_dossier_id)
    )`.execute(db);
  // a dossier's subscribers, read on every write of it (the unique key starts with the user)
  await sql`create index dossier_subscription_dossier on dossier_subscription (environment_id, content_dossier_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index dossier_subscription_dossier`.execute(db);
  await sql`drop table subscription_notice`.execute(db);
  await sql`drop table message_recipient`.execute(db);
  await sql`drop table message`.execute(db);
}
