import { AVATAR_TYPES, MAX_AVATAR_BYTES, PROFILE_MESSAGES, type Profile } from '@dossierbase/core';
import { Button, FileButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client';
import { notifyError, notifySuccess } from '../../api/errors';
import { readAsDataUrl } from '../../fields/file-api';
import { translateMessage } from '../../i18n/messages';
import { removeAvatar, uploadAvatar, useProfileChange } from './people-api';
import { UserAvatar } from './user-avatar';

const ACCEPTED: readonly string[] = AVATAR_TYPES;

/** The own picture: shown at 200 pixels, replaced by an upload (checked here and on the server) or removed. */
export function AvatarUpload({ profile, name }: { profile: Profile; name: string }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const upload = useProfileChange(async (file: File) => uploadAvatar(await readAsDataUrl(file)));
  const remove = useProfileChange(removeAvatar);

  const choose = async (file: File | null) => {
    setError(null);
    if (!file) return;
    if (!ACCEPTED.includes(file.type)) return setError(translateMessage(t, PROFILE_MESSAGES.avatarType));
    if (file.size > MAX_AVATAR_BYTES) return setError(translateMessage(t, PROFILE_MESSAGES.avatarSize));
    try {
      await upload.mutateAsync(file);
      notifySuccess(t('profile.avatar.saved'));
    } catch (failure) {
      const message = isApiError(failure) ? failure.fieldErrors?.image : undefined;
      if (message) setError(translateMessage(t, message));
      else notifyError(failure, t);
    }
  };

  const drop = async () => {
    setError(null);
    try {
      await remove.mutateAsync(undefined);
      notifySuccess(t('profile.avatar.removed'));
    } catch (failure) {
      notifyError(failure, t);
    }
  };

  return (
    <Paper withBorder p="lg" data-testid="profile-avatar">
      <Stack align="center">
        <Title order={2} size="h4" style={{ alignSelf: 'flex-start' }}>
          {t('profile.avatar.title')}
        </Title>
        <UserAvatar name={name} image={profile.avatar?.large} size={200} />
        <Group justify="center">
          <FileButton
            onChange={(file) => void choose(file)}
            accept={AVATAR_TYPES.join(',')}
            inputProps={{ 'data-testid': 'profile-avatar-input' } as object}
          >
            {(props) => (
              <Button
                {...props}
                variant="light"
                leftSection={<IconPhotoUp size={16} />}
                loading={upload.isPending}
                data-testid="profile-avatar-upload"
              >
                {profile.avatar ? t('profile.avatar.change') : t('profile.avatar.upload')}
              </Button>
            )}
          </FileButton>
          {profile.avatar && (
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} />}
              loading={remove.isPending}
              onClick={() => void drop()}
              data-testid="profile-avatar-remove"
            >
              {t('profile.avatar.remove')}
            </Button>
          )}
        </Group>
        <Text size="sm" c="dimmed" ta="center">
          {t('profile.avatar.hint')}
        </Text>
        {error && (
          <Text size="sm" c="red" role="alert" data-testid="profile-avatar-error">
            {error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
