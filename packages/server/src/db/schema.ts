import type { QueryDocument, QueryTranslation } from '@dossierbase/core';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

// Table types for Kysely; kept by hand beside the migrations that create them.
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
// jsonb columns take plain values: db/json-columns.ts serialises them once for the driver.
type Json<T> = ColumnType<T, string | T | undefined, string | T>;
type JsonArray<T extends unknown[]> = Json<T>;

export interface AppSettingTable {
  key: string;
  value: string;
}

export interface AppUserTable {
  id: Generated<number>;
  username: string;
  email: string | null;
  password_hash: string | null;
  first_name: string | null;
  /** van, de, von ...: between first and last name */
  preposition: ColumnType<string | null, string | null | undefined, string | null>;
  last_name: string | null;
  mobile: ColumnType<string | null, string | null | undefined, string | null>;
  /** when the avatar (user_avatar) was uploaded; null: none. Versions the avatar's address. */
  avatar_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  locale: string | null;
  private_settings: Json<{ presence?: string }>;
  otp_secret: string | null;
  /** a two-factor secret handed out for set-up, until the user confirms it with a first code */
  otp_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
  force_password_update: Generated<boolean>;
  active: Generated<boolean>;
  created_at: Generated<Date>;
  modified_at: Generated<Date>;
}

export interface LocaleTable {
  id: Generated<number>;
  code: string;
  name: string;
}

export interface EnvironmentTable {
  id: Generated<number>;
  name: string;
  description: string;
  active: Generated<boolean>;
  logo: Buffer | null;
  logo_mime: string | null;
  apply_template: number | null;
  settings: Json<Record<string, unknown>>;
  env_modules: ColumnType<string[], string[] | undefined, string[]>;
  /** moved on by triggers on every configuration write (bigint: read as text) */
  config_version: Generated<string>;
  /** security policy (/security): members must sign in with a code */
  require_two_factor: Generated<boolean>;
  password_min_length: Generated<number>;
  /** passwords need lower and upper case letters, a digit and a symbol */
  password_complexity: Generated<boolean>;
  /** the longest a sign-in of a member lasts; null: the platform's own */
  session_hours: ColumnType<number | null, number | null | undefined, number | null>;
  created_by: number | null;
  modified_by: number | null;
  created_at: Generated<Date>;
  modified_at: Generated<Date>;
}

export interface EnvironmentLocaleTable {
  id: Generated<number>;
  environment_id: number;
  locale_id: number;
  rank: Generated<number>;
}

/** An environment's own wording of an interface text (a key of the catalogues) in a language or locale. */
export interface EnvironmentTextTable {
  environment_id: number;
  locale: string;
  key: string;
  value: string;
  modified_by: number | null;
  modified_at: Generated<Date>;
}

/** A sign-in of a user: a session started, whichever way (migration 2026-11-27T1100). */
export interface SignInTable {
  id: Generated<number>;
  user_id: number;
  signed_in_at: Generated<Date>;
}

/** A day on which a member made a call in an environment. */
export interface MemberActivityDayTable {
  environment_id: number;
  /** YYYY-MM-DD (UTC) */
  day: string;
  user_id: number;
}

export interface RoleTable {
  id: Generated<number>;
  environment_id: number;
  name: string;
  translations: JsonArray<{ culture: string; name: string }[]>;
}

export interface EnvironmentUserTable {
  id: Generated<number>;
  environment_id: number;
  user_id: number;
  credentials: ColumnType<string[], string[] | undefined, string[]>;
  role_ids: ColumnType<number[], number[] | undefined, number[]>;
  /** false: deactivated in this environment, which they cannot open until an admin activates them */
  active: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface SubscriptionTable {
  id: Generated<number>;
  user_id: number;
  max_environments: number;
  /** how many people may work in the holder's environments; null: no limit */
  max_users: ColumnType<number | null, number | null | undefined, number | null>;
  starts_at: Timestamp;
  expires_at: Timestamp;
}

export interface SubscriptionOrderTable {
  id: Generated<number>;
  user_id: number;
  max_environments: number;
  /** null: no user limit asked for */
  max_users: number | null;
  months: number;
  note: Generated<string>;
  status: Generated<'requested' | 'cancelled' | 'fulfilled'>;
  /** the subscription a super admin added for it */
  subscription_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Generated<Date>;
  modified_at: Generated<Date>;
}

export interface SecretTokenTable {
  id: Generated<number>;
  user_id: number;
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  expires_at: Timestamp;
  used_at: Date | null;
  created_at: Generated<Date>;
}

/** A refresh token belongs to the session its sign-in opened (null: issued before sessions existed). */
export interface RefreshTokenTable extends SecretTokenTable {
  session_id: number | null;
}

/** One sign-in, open until sign-out or a new password; access tokens name it in their `sid`. */
/** A user's avatar, as WebP of 64 and 200 pixels square. */
export interface UserAvatarTable {
  user_id: number;
  small: Buffer;
  large: Buffer;
}

export interface UserSessionTable {
  id: Generated<number>;
  user_id: number;
  expires_at: Timestamp;
  created_at: Generated<Date>;
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  address: ColumnType<string | null, string | null | undefined, string | null>;
  last_used_at: Generated<Date>;
  /** the latest the session lasts (the security policy of the user's environments); null: no limit */
  ends_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** One of a user's ten recovery codes (SHA-256), each good for one sign-in instead of a code. */
export interface UserRecoveryCodeTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Generated<Date>;
}

export interface LoginAttemptTable {
  id: Generated<string>;
  username: string;
  address: string;
  success: boolean;
  created_at: Generated<Date>;
}

/** One forgot_password request, by its address (the per-address limit). */
export interface PasswordResetRequestTable {
  id: Generated<string>;
  address: string;
  created_at: Generated<Date>;
}

export interface DefDossierTable {
  id: Generated<number>;
  environment_id: number;
  uuid: Generated<string>;
  type: 'main' | 'hidden' | 'other';
  rank: Generated<number>;
  visibility_roles: ColumnType<number[], number[] | undefined, number[]>;
  translations: JsonArray<{ culture: string; name: string; name_singular: string; name_plural: string }[]>;
  settings: Json<Record<string, unknown>>;
  archivable: Generated<boolean>;
  created_at: Generated<Date>;
  modified_at: Generated<Date>;
}

export interface DefFieldTable {
  id: Generated<number>;
  environment_id: number;
  uuid: Generated<string>;
  name: string;
  type: string;
  settings: Json<Record<string, unknown>>;
  rank: Generated<number>;
  created_at: Generated<Date>;
  modified_at: Generated<Date>;
}

export interface ListOptionTranslation {
  culture: string;
  text: string;
  settings?: { informationtext?: string; pretext?: string };
}

export interface DefFieldListTable {
  id: Generated<number>;
  environment_id: number;
  def_field_id: number;
  uuid: Generated<string>;
  color: string | null;
  rank: Generated<number>;
  is_default: Generated<boolean>;
  translations: JsonArray<ListOptionTranslation[]>;
  settings: Json<{ roles?: number[] } & Record<string, unknown>>;
}

export interface DefDossierDefFieldTable {
  id: Generated<number>;
  environment_id: number;
  def_dossier_id: number;
  def_field_id: number;
  uuid: Generated<string>;
  name: string;
  obligatory: Generated<boolean>;
  locked: Generated<boolean>;
  settings: Json<Record<string, unknown>>;
  /** role visibility of the field in every view (policy/field-visibility.ts); items narrow it */
  roles: ColumnType<number[], number[] | undefined, number[]>;
  permissions_type: Generated<'EXCLUDE_SELECTED_ROLES' | 'INCLUDE_SELECTED_ROLES'>;
}

export interface DefDossierLinkTable {
  id: Generated<number>;
  environment_id: number;
  def_dossier_id: number;
  child_def_dossier_id: number;
  back_link_id: number | null;
  uuid: Generated<string>;
  name: string;
  type_of_link: 'select' | 'embeddedList';
  cascade_rule: Generated<'maintain' | 'delete' | 'constraint'>;
  archive_cascade_rule: Generated<'' | 'archive'>;
  obligatory: Generated<boolean>;
  locked: Generated<boolean>;
  disable_backlink: Generated<boolean>;
  settings: Json<Record<string, unknown>>;
}

export interface PositionTranslation {
  culture: string;
  name: string;
  name_plural?: string;
}

export interface DisplayPositionTable {
  id: Generated<number>;
  environment_id: number;
  def_dossier_id: number;
  uuid: Generated<string>;
  type: 'main_content' | 'tab' | 'meta' | 'footer' | 'hide';
  hide: Generated<boolean>;
  rank: Generated<number>;
  view_name: string | null;
  translations: JsonArray<PositionTranslation[]>;
}

export interface DisplayCustomViewTable {
  id: Generated<number>;
  environment_id: number;
  def_dossier_id: number;
  view_name: string;
}

export interface DisplayItemTranslation {
  culture: string;
  name: string;
  settings?: { informationtext?: string; pretext?: string };
}

export interface DisplayItemTable {
  id: Generated<number>;
  environment_id: number;
  def_dossier_id: number;
  uuid: Generated<string>;
  display_position_id: number | null;
  def_dossier_def_field_id: number | null;
  def_dossier_link_id: number | null;
  view: string;
  col: Generated<number>;
  rank: Generated<number>;
  colspan: Generated<number>;
  rowspan: Generated<number>;
  roles: ColumnType<number[], number[] | undefined, number[]>;
  permissions_type: Generated<'EXCLUDE_SELECTED_ROLES' | 'INCLUDE_SELECTED_ROLES'>;
  translations: JsonArray<DisplayItemTranslation[]>;
  settings: Json<Record<string, unknown>>;
}

export interface PermissionTable {
  id: Generated<number>;
  environment_id: number;
  def_dossier_id: number;
  role_id: number;
  actions: ColumnType<string[], string[] | undefined, string[]>;
}

export interface ContentDossierTable {
  id: Generated<number>;
  environment_id: number;
  def_dossier_id: number;
  summary: Generated<string>;
  /** the summary per visibility class, for entities with restricted summary items (content-dossier/summary.ts) */
  summaries: Json<Record<string, string> | null>;
  archived: Generated<boolean>;
  values: Json<Record<string, unknown>>;
  created_by: number | null;
  modified_by: number | null;
  created_at: Generated<Date>;
  modified_at: Generated<Date>;
}

export interface ContentLinkTable {
  id: Generated<number>;
  environment_id: number;
  link_id: number;
  parent_id: number;
  child_id: number;
  rank: Generated<number>;
}

export interface DossierLogChange {
  /** the display item the change was made through (entries written before issue 18 have only the name) */
  displayItemId?: number;
  defDisplayItemName: string;
  oldValue: unknown;
  newValue: unknown;
}

export interface DossierLogTable {
  id: Generated<number>;
  environment_id: number;
  content_dossier_id: number;
  def_dossier_id: number;
  type: 'create' | 'shown' | 'change' | 'archive' | 'delete' | 'secureshare';
  user_id: number | null;
  username: string | null;
  changes: JsonArray<DossierLogChange[]>;
  created_at: Generated<Date>;
}

export interface DossierMarkTable {
  id: Generated<number>;
  environment_id: number;
  user_id: number;
  content_dossier_id: number;
  created_at: Generated<Date>;
}

/** What a subscription notice says; the reader's client words it (migration 2026-11-28T1000). */
export interface MessageNotice {
  event: 'change' | 'archive' | 'delete';
  /** the dossier's summary as the recipient may see it, when the notice was made */
  summary: string;
  def_dossier_id: number;
  /** who changed it */
  by: string;
}

export interface MessageTable {
  id: Generated<number>;
  environment_id: number;
  /** null: a notice of the product itself, or a sender since removed */
  sender_id: number | null;
  title: string;
  message_text: string;
  type: Generated<'normal' | 'popup'>;
  content_dossier_id: ColumnType<number | null, number | null | undefined, number | null>;
  notice: ColumnType<MessageNotice | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
}

export interface MessageRecipientTable {
  environment_id: number;
  message_id: number;
  user_id: number;
  read_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The last notice a subscriber got about a dossier (at most one per 10 minutes). */
export interface SubscriptionNoticeTable {
  environment_id: number;
  user_id: number;
  content_dossier_id: number;
  sent_at: ColumnType<Date, Date | undefined, Date>;
}

export interface AutoIncrementCounterTable {
  def_dossier_def_field_id: number;
  value: number;
}

export interface TemplateTable {
  id: Generated<number>;
  name: string;
  description: string;
  template: Json<Record<string, unknown>>;
  translations: JsonArray<
    { culture: string; name: string; description: string; thumbnail_path: string | null }[]
  >;
  created_at: Generated<Date>;
}

export interface FileTable {
  id: Generated<number>;
  environment_id: number;
  name: string;
  description: Generated<string>;
  mime: string;
  size: number;
  created_by: number | null;
  created_at: Generated<Date>;
}

/** A file's bytes, in rows of FILE_CHUNK_BYTES (the last one shorter), numbered from 0. */
export interface FileChunkTable {
  environment_id: number;
  file_id: number;
  seq: number;
  bytes: Buffer;
}

/** Moved on by triggers on every write to an entity's dossiers or links (bigint: read as text). */
/** Dossiers per entity and archived state, kept by triggers (migration 2026-11-25T1600). */
export interface EntityDossierCountTable {
  environment_id: number;
  def_dossier_id: number;
  archived: boolean;
  total: number;
}

/** The data fields (of a list or tree type) whose chosen options are counted. */
export interface OptionCountFieldTable {
  environment_id: number;
  def_dossier_id: number;
  field_id: number;
}

/** Dossiers per counted field, archived state and option (option -1: any value), kept by triggers. */
export interface OptionCountTable {
  environment_id: number;
  def_dossier_id: number;
  field_id: number;
  archived: boolean;
  /** an element of a multiple choice, not a single choice */
  many: boolean;
  option_id: number;
  total: number;
}

/** A dashboard block's earned grouping of one entity (migration 2026-11-28T1840). */
export interface DashboardRollupTable {
  environment_id: number;
  id: Generated<number>;
  def_dossier_id: number;
  kind: 'count' | 'sum' | 'day';
  /** the list field (count) or the summed field (sum); null for day */
  field_id: number | null;
  /** count and day: the date field, null for the creation date */
  date_field_id: number | null;
  /** filled: its counts are complete (the triggers keep it from its creation on) */
  ready: Generated<boolean>;
  used_at: Generated<Date>;
}

/** Signed counts and sums per rollup key, inserted by triggers, summed by the reader. */
export interface DashboardRollupDeltaTable {
  environment_id: number;
  rollup_id: number;
  archived: boolean;
  /** 'YYYY-MM' ('YYYY-MM-DD' in a day rollup), null without a date, '!' a value the block's SQL cannot cast */
  period: string | null;
  option: string | null;
  total: number;
  amount: string | null;
}

export interface EntityDataVersionTable {
  def_dossier_id: number;
  version: Generated<string>;
}

/** A background rewrite of an entity's stored summaries, noted until done. */
export interface SummaryRefreshTable {
  environment_id: number;
  def_dossier_id: number;
  requested_at: Generated<Date>;
}

/** A saved query (dossier_query): a query document over one entity. */
export interface DossierQueryTable {
  id: Generated<number>;
  uuid: Generated<string>;
  environment_id: number;
  def_dossier_id: number;
  /** the query document (core queryDocumentSchema) */
  data: Json<QueryDocument>;
  translations: JsonArray<QueryTranslation[]>;
  created_by: number | null;
  modified_by: number | null;
  created_at: Generated<Date>;
  modified_at: Generated<Date>;
}

/** A dashboard block (mypage_block). */
export interface MypageBlockTable {
  id: Generated<number>;
  uuid: Generated<string>;
  environment_id: number;
  type: string;
  def_dossier_id: number | null;
  dossier_query_id: number | null;
  parent_id: number | null;
  col: Generated<number>;
  rank: Generated<number>;
  dashboard: Generated<boolean>;
  roles: ColumnType<number[], number[] | undefined, number[]>;
  translations: JsonArray<{ culture: string; title: string }[]>;
  settings: Json<Record<string, unknown>>;
  created_at: Generated<Date>;
  modified_at: Generated<Date>;
}

/** The grid of one view of an environment's dashboard: a user's own (user_id) or the default (null). */
export interface MypagePositionTable {
  id: Generated<number>;
  environment_id: number;
  user_id: number | null;
  positions: Json<{ x: number; y: number; w: number; h: number; uuid: string }[]>;
  modified_at: Generated<Date>;
}

export interface Database {
  mypage_block: MypageBlockTable;
  mypage_position: MypagePositionTable;
  dossier_query: DossierQueryTable;
  app_setting: AppSettingTable;
  app_user: AppUserTable;
  locale: LocaleTable;
  environment: EnvironmentTable;
  environment_locale: EnvironmentLocaleTable;
  environment_text: EnvironmentTextTable;
  role: RoleTable;
  environment_user: EnvironmentUserTable;
  subscription: SubscriptionTable;
  subscription_order: SubscriptionOrderTable;
  refresh_token: RefreshTokenTable;
  user_session: UserSessionTable;
  user_recovery_code: UserRecoveryCodeTable;
  user_avatar: UserAvatarTable;
  login_key: SecretTokenTable;
  password_reset: SecretTokenTable;
  login_attempt: LoginAttemptTable;
  password_reset_request: PasswordResetRequestTable;
  def_dossier: DefDossierTable;
  template: TemplateTable;
  def_field: DefFieldTable;
  def_field_list: DefFieldListTable;
  def_dossier_def_field: DefDossierDefFieldTable;
  def_dossier_link: DefDossierLinkTable;
  display_position: DisplayPositionTable;
  display_custom_view: DisplayCustomViewTable;
  display_item: DisplayItemTable;
  permission: PermissionTable;
  content_dossier: ContentDossierTable;
  content_link: ContentLinkTable;
  dossier_log: DossierLogTable;
  favourite: DossierMarkTable;
  dossier_subscription: DossierMarkTable;
  message: MessageTable;
  message_recipient: MessageRecipientTable;
  subscription_notice: SubscriptionNoticeTable;
  auto_increment_counter: AutoIncrementCounterTable;
  file: FileTable;
  file_chunk: FileChunkTable;
  entity_data_version: EntityDataVersionTable;
  entity_dossier_count: EntityDossierCountTable;
  option_count_field: OptionCountFieldTable;
  option_count: OptionCountTable;
  dashboard_rollup: DashboardRollupTable;
  dashboard_rollup_delta: DashboardRollupDeltaTable;
  summary_refresh: SummaryRefreshTable;
  sign_in: SignInTable;
  member_activity_day: MemberActivityDayTable;
}

export type UserRow = Selectable<AppUserTable>;
export type NewUser = Insertable<AppUserTable>;
export type EnvironmentRow = Selectable<EnvironmentTable>;
