import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconHome, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundPage } from './not-found-page';

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  return String(error ?? '');
}

// Vite reports a missing chunk as "Failed to fetch dynamically imported module"; older bundlers say "chunk".
export function isStaleReleaseError(message: string): boolean {
  return /chunk|dynamically imported module/i.test(message);
}

async function clearCachesAndReload() {
  if ('caches' in window) {
    const keys = await caches.keys();
    await Promise.all(keys.map((key) => caches.delete(key)));
  }
  window.location.reload();
}

export function ErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const stale = isStaleReleaseError(messageOf(error));
  if (error) console.error(error);

  return (
    <Center mih="100vh" p="md" data-testid="error-page">
      <Stack align="center" maw={520} ta="center">
        <Title order={1} size="h2" data-testid="error-title">
          {stale ? t('error.new_release_title') : t('error.title')}
        </Title>
        <Text c="dimmed">{stale ? t('error.new_release_text') : t('error.text')}</Text>
        <Group>
          {stale ? (
            <Button
              leftSection={<IconRefresh size={16} />}
              onClick={() => void clearCachesAndReload()}
              data-testid="error-refresh"
            >
              {t('error.refresh')}
            </Button>
          ) : (
            <>
              <Button
                variant="default"
                leftSection={<IconArrowLeft size={16} />}
                onClick={() => window.history.back()}
                data-testid="error-back"
              >
                {t('common.back')}
              </Button>
              <Button
                leftSection={<IconHome size={16} />}
                onClick={() => window.location.assign('/')}
                data-testid="error-home"
              >
                {t('common.home')}
              </Button>
            </>
          )}
        </Group>
      </Stack>
    </Center>
  );
}
