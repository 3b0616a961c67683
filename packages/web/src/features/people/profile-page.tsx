import { Grid, Loader, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { memberName } from '../dossiers/use-environment-users';
import { AvatarUpload } from './avatar-upload';
import { PasswordChangeForm } from './password-change-form';
import { useProfile } from './people-api';
import { ProfileForm } from './profile-form';

// /profile: the signed-in user's own details, picture and password.
export function ProfilePage() {
  const { t } = useTranslation();
  const profile = useProfile();
  if (!profile.data) return <Loader />;
  const name = memberName({ username: profile.data.username, profile: profile.data });

  return (
    <Stack data-testid="profile-page">
      <Title order={1} size="h3">
        {t('profile.title')}
      </Title>
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <AvatarUpload profile={profile.data} name={name} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <ProfileForm profile={profile.data} />
        </Grid.Col>
      </Grid>
      <PasswordChangeForm />
    </Stack>
  );
}
