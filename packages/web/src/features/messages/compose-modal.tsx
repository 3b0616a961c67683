import { htmlToText, MESSAGE_TITLE_MAX, type MessageType, REQUIRED_MESSAGE } from '@dossierbase/core';
import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callErrors, notifySuccess } from '../../api/errors';
import { TextareaEditor } from '../../fields/textarea';
import type { FieldEditorProps } from '../../fields/types';
import { translateMessage } from '../../i18n/messages';
import { memberName } from '../dossiers/use-environment-users';
import { useEnvironment } from '../environments/environment-store';
import { type ComposeRequest, composeRequest } from './compose-request';
import { messageKeys, searchRecipients, sendMessage } from './messages-api';

const USER_SEARCH_DEBOUNCE_MS = 300;
// The rich text editor of the textarea field, outside a dossier: it reads no display item.
const NO_ITEM = {} as FieldEditorProps['item'];

/** The compose modal's one host, in the shell. */
export function ComposeHost() {
  const request = composeRequest.useCurrent();
  if (!request) return null;
  return <ComposeModal request={request} onClose={(sent) => composeRequest.finish(sent)} />;
}

function ComposeModal({ request, onClose }: { request: ComposeRequest; onClose: (sent: boolean) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const environment = useEnvironment();
  const environmentId = environment?.id ?? 0;
  const canSendPopup = environment?.abilities?.canSendPopup ?? false;
  const [to, setTo] = useState<{ id: number; name: string }[]>(request.to ?? []);
  const [title, setTitle] = useState(request.title ?? '');
  const [text, setText] = useState('');
  const [type, setType] = useState<MessageType>('normal');
  const [dossier, setDossier] = useState(request.dossier ?? null);
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), USER_SEARCH_DEBOUNCE_MS);
  const [submitted, setSubmitted] = useState(false);
  const found = useQuery({
    queryKey: ['user', 'members', 'recipients', environmentId, name],
    queryFn: ({ signal }) => searchRecipients(environmentId, name, signal),
    enabled: environmentId > 0,
  });
  const options = [
    ...to,
    ...(found.data?.results ?? [])
      .map((member) => ({ id: member.id, name: memberName(member) }))
      .filter((member) => !to.some((chosen) => chosen.id === member.id)),
  ];
  const send = useMutation({
    mutationFn: () =>
      sendMessage({
        environment: environmentId,
        users: to.map((user) => user.id),
        title,
        messageText: text,
        type,
        contentDossier: dossier?.id ?? null,
      }),
    onSuccess: () => {
      notifySuccess(t('messages.sent'));
      void queryClient.invalidateQueries({ queryKey: messageKeys.all });
      onClose(true);
    },
  });
  const errors = callErrors(send.error, t);
  // what is still empty: shown once the user tried to send, and gone as soon as it is filled in
  const empty: Record<string, boolean> = {
    to: to.length === 0,
    title: title.trim() === '',
    message: htmlToText(text).trim() === '' && !/<img\b/i.test(text),
  };
  const required = (field: string) =>
    submitted && empty[field] ? translateMessage(t, REQUIRED_MESSAGE) : undefined;
  const submit = () => {
    setSubmitted(true);
    if (!Object.values(empty).some(Boolean)) send.mutate();
  };

  return (
    <Modal opened onClose={() => onClose(false)} title={t('messages.compose')} size="lg">
      <Stack gap="sm" data-testid="compose-modal">
        <MultiSelect
          label={t('messages.to')}
          withAsterisk
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: all }) => all}
          data={options.map((user) => ({ value: String(user.id), label: user.name }))}
          value={to.map((user) => String(user.id))}
          onChange={(ids) => {
            setTo(ids.flatMap((id) => options.filter((user) => String(user.id) === id)));
            setSearch('');
          }}
          nothingFoundMessage={t('messages.no_users')}
          error={required('to') ?? errors.fieldError('to')}
          data-testid="compose-to"
        />
        <TextInput
          label={t('messages.title_label')}
          withAsterisk
          maxLength={MESSAGE_TITLE_MAX}
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
          error={required('title') ?? errors.fieldError('title')}
          data-testid="compose-title"
        />
        <TextareaEditor
          label={t('messages.message_label')}
          required
          value={text}
          onChange={(value) => setText(typeof value === 'string' ? value : '')}
          settings={{}}
          item={NO_ITEM}
          error={required('message') ?? errors.fieldError('message')}
        />
        {canSendPopup && (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="compose-type-label">
              {t('messages.type')}
            </Text>
            <SegmentedControl
              aria-labelledby="compose-type-label"
              value={type}
              onChange={(value) => setType(value as MessageType)}
              data={[
                { value: 'normal', label: t('messages.type_normal') },
                { value: 'popup', label: t('messages.type_popup') },
              ]}
              data-testid="compose-type"
            />
          </Stack>
        )}
        {dossier && (
          <Group gap="xs" data-testid="compose-dossier">
            <Text size="sm">{t('messages.about', { summary: dossier.summary })}</Text>
            <Button variant="subtle" size="compact-xs" color="gray" onClick={() => setDossier(null)}>
              {t('messages.detach')}
            </Button>
          </Group>
        )}
        {errors.formError && (
          <Alert color="red" role="alert">
            {errors.formError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose(false)}>
            {t('common.cancel')}
          </Button>
          <Button onClick={submit} loading={send.isPending} data-testid="compose-send">
            {t('messages.send')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
