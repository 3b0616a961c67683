import {
  ENTITY_MESSAGES,
  ENVIRONMENT_MESSAGES,
  ENVIRONMENT_SETTINGS_MESSAGES,
  ENVIRONMENT_TEXT_MESSAGES,
  FORBIDDEN_MESSAGE,
  GANTT_MESSAGES,
  LINK_MESSAGES,
  LOG_MESSAGES,
  LOGIN_MESSAGES,
  MASS_UPDATE_MESSAGES,
  MEMBER_MESSAGES,
  MERGE_MESSAGES,
  MESSAGE_MESSAGES,
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
  PASSWORD_UPDATE_REQUIRED,
  PERMISSION_MESSAGES,
  PROFILE_MESSAGES,
  REQUIRED_MESSAGE,
  RESET_MESSAGES,
  ROLE_MESSAGES,
  SECURITY_MESSAGES,
  SERIES_MESSAGES,
  SERVICE_MESSAGES,
  SUBSCRIPTION_MESSAGES,
  TWO_FACTOR_REQUIRED,
} from '@dossierbase/core';
import type { TFunction } from 'i18next';

/** The server's messages about query documents (packages/server/src/query/compile, core/query). */
const QUERY_MESSAGES = {
  unknownField: 'Item not found',
  operator: 'This operator cannot be used for this field',
  depth: 'The query is nested too deeply',
  cycle: 'The query refers to itself',
  unknownLink: 'Unknown link',
  unknownQuery: 'Unknown query',
  nesting: 'Nest at most 8 levels',
  conditions: 'Use at most 200 conditions',
  tooManyValues: 'Too many values',
  maxBelowMin: 'The maximum must not be below the minimum',
  value: 'Enter a valid value',
  date: 'Enter a valid date',
  number: 'Enter a valid number',
  wholeNumber: 'Enter a whole number',
  twoValues: 'Enter two values separated by a comma',
  unknownOperator: 'Unknown operator',
} as const;

// Server and shared-schema messages are English sentences; map the known ones to translation keys.
const MESSAGE_KEYS: Record<string, string> = {
  [REQUIRED_MESSAGE]: 'validation.required',
  [LINK_MESSAGES.notAChoice]: 'validation.link_not_a_choice',
  [FORBIDDEN_MESSAGE]: '403_general_message',
  'Invalid e-mail address': 'validation.email',
  'At most 6 digits': 'validation.max_6_digits',
  'Digits only': 'validation.digits_only',
  [`Use at least ${PASSWORD_MIN_LENGTH} characters`]: 'validation.password_min',
  'At most 100 characters': 'validation.max_100',
  'At most 200 characters': 'validation.max_200',
  'At most 2000 characters': 'validation.max_2000',
  [PASSWORD_MESSAGES.mismatch]: 'validation.passwords_mismatch',
  [PASSWORD_MESSAGES.incorrect]: 'password.incorrect',
  [LOGIN_MESSAGES.incorrect]: 'login.incorrect',
  [LOGIN_MESSAGES.otpRequired]: 'login.otp_required',
  [LOGIN_MESSAGES.otpIncorrect]: 'login.otp_incorrect',
  [LOGIN_MESSAGES.keyIncorrect]: 'login_incorrect',
  [LOGIN_MESSAGES.tooMany]: 'login.too_many',
  [ENVIRONMENT_MESSAGES.limit]: 'environment.limit_reached',
  [ENVIRONMENT_MESSAGES.inactive]: 'environment.inactive',
  [ENVIRONMENT_MESSAGES.languageRequired]: 'environment.language_required',
  [ENVIRONMENT_MESSAGES.imageType]: 'environment.image_type',
  'Incorrect username or email address': 'forgot.failed',
  'This link is invalid or has expired.': 'reset.invalid',
  [RESET_MESSAGES.tooMany]: 'forgot.too_many',
  [PASSWORD_UPDATE_REQUIRED]: 'password.update_text',
  [TWO_FACTOR_REQUIRED]: 'security.required.text',
  // the dashboard's messages (packages/server/src/resources/dashboard)
  'This block reads a field you may not see': 'dashboard.hidden_field',
  'Not supported settings': 'dashboard.not_supported',
  'Enter a number from 1 to 12': 'dashboard.messages.col',
  'Choose a container block': 'dashboard.messages.parent',
  'Unknown query': 'dashboard.messages.query',
  'This uuid is taken': 'dashboard.messages.uuid',
  'Unknown link': 'dashboard.messages.link',
  'Choose the list or a custom view of the entity': 'dashboard.messages.view',
  'Choose a block of this environment': 'dashboard.messages.block',
  'Choose a link of this entity': 'dashboard.messages.block_link',
  [SERVICE_MESSAGES.databaseUnavailable]: 'common.service_unavailable',
  [SERVICE_MESSAGES.busy]: 'common.server_busy',
  // the configuration's messages, admin.messages.<name of the message>
  ...Object.fromEntries(
    Object.entries(ENTITY_MESSAGES).map(([name, text]) => [text, `admin.messages.${name}`]),
  ),
  ...Object.fromEntries(
    Object.entries(ENVIRONMENT_SETTINGS_MESSAGES).map(([name, text]) => [
      text,
      `admin.environment.messages.${name}`,
    ]),
  ),
  ...Object.fromEntries(Object.entries(LOG_MESSAGES).map(([name, text]) => [text, `log.messages.${name}`])),
  ...Object.fromEntries(
    Object.entries(ROLE_MESSAGES).map(([name, text]) => [text, `admin.roles.messages.${name}`]),
  ),
  ...Object.fromEntries(
    Object.entries(PERMISSION_MESSAGES).map(([name, text]) => [text, `admin.permissions.messages.${name}`]),
  ),
  // the member administration's messages, admin.members.messages.<name of the message>
  ...Object.fromEntries(
    Object.entries(MEMBER_MESSAGES).map(([name, text]) => [text, `admin.members.messages.${name}`]),
  ),
  ...Object.fromEntries(
    Object.entries(SECURITY_MESSAGES).map(([name, text]) => [text, `security.messages.${name}`]),
  ),
  ...Object.fromEntries(
    Object.entries(PROFILE_MESSAGES).map(([name, text]) => [text, `profile.messages.${name}`]),
  ),
  [ENVIRONMENT_TEXT_MESSAGES.unknownKey]: 'languages.messages.unknownKey',
  [ENVIRONMENT_TEXT_MESSAGES.unknownLocale]: 'languages.messages.unknownLocale',
  [ENVIRONMENT_TEXT_MESSAGES.markup]: 'languages.messages.markup',
  [ENVIRONMENT_MESSAGES.lastLanguage]: 'languages.messages.lastLanguage',
  [ENVIRONMENT_MESSAGES.unknownLanguage]: 'languages.messages.unknownLanguage',
  ...Object.fromEntries(
    Object.entries(MASS_UPDATE_MESSAGES).map(([name, text]) => [text, `mass_update.messages.${name}`]),
  ),
  ...Object.fromEntries(
    Object.entries(MERGE_MESSAGES).map(([name, text]) => [text, `merge.messages.${name}`]),
  ),
  ...Object.fromEntries(
    Object.entries(SERIES_MESSAGES).map(([name, text]) => [text, `series.messages.${name}`]),
  ),
  ...Object.fromEntries(
    Object.entries(MESSAGE_MESSAGES).map(([name, text]) => [text, `messages.errors.${name}`]),
  ),
  ...Object.fromEntries(
    Object.entries(SUBSCRIPTION_MESSAGES).map(([name, text]) => [text, `subscriptions.messages.${name}`]),
  ),
  ...Object.fromEntries(
    Object.entries(GANTT_MESSAGES).map(([name, text]) => [text, `linked_views.gantt.messages.${name}`]),
  ),
  // the query compiler's and the query document's messages
  ...Object.fromEntries(
    Object.entries(QUERY_MESSAGES).map(([name, text]) => [text, `queries.messages.${name}`]),
  ),
};

export function translateMessage(t: TFunction, message: string | null | undefined): string {
  if (!message) return t('common.something_went_wrong');
  const key = MESSAGE_KEYS[message];
  return key ? t(key) : message;
}
