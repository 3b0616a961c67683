import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" p="md" data-testid="not-found-page">
      <Stack align="center" ta="center">
        <Text fz={64} fw={800} c="dimmed" lh={1}>
          404
        </Text>
        <Title order={1} size="h2">
          {t('not_found.title')}
        </Title>
        <Text c="dimmed">{t('not_found.text')}</Text>
        <Button component={Link} to="/" data-testid="not-found-home">
          {t('common.home')}
        </Button>
      </Stack>
    </Center>
  );
}
