import type { Environment } from '@dossierbase/core';
import { ActionIcon, Avatar, Badge, Button, Card, Group, Image, Stack, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface EnvironmentCardProps {
  environment: Environment;
  opening: boolean;
  onOpen: () => void;
  onInfo: () => void;
}

export function EnvironmentCard({ environment, opening, onOpen, onInfo }: EnvironmentCardProps) {
  const { t } = useTranslation();
  const inactive = !environment.active;
  return (
    <Card
      withBorder
      padding="lg"
      data-testid="environment-card"
      data-environment-id={environment.id}
      data-active={environment.active}
      // greyed by a grey background and a grey logo, not by fading: faded text loses its contrast
      bg={inactive ? 'gray.0' : undefined}
      style={inactive ? { borderStyle: 'dashed' } : undefined}
    >
      <Stack gap="sm" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            {environment.logo ? (
              <Image
                src={environment.logo}
                alt=""
                h={40}
                w={40}
                fit="contain"
                radius="sm"
                style={inactive ? { filter: 'grayscale(1)' } : undefined}
              />
            ) : (
              <Avatar color="indigo" radius="sm">
                {environment.name.slice(0, 2).toUpperCase()}
              </Avatar>
            )}
            <Text fw={700} lineClamp={2} data-testid="environment-card-name">
              {environment.name}
            </Text>
          </Group>
          <Tooltip label={t('environment.info')}>
            <ActionIcon
              variant="subtle"
              onClick={onInfo}
              aria-label={t('environment.info')}
              data-testid="environment-info"
            >
              <IconInfoCircle size={20} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Text size="sm" c={inactive ? 'gray.7' : 'dimmed'} lineClamp={3} style={{ flex: 1 }}>
          {environment.description}
        </Text>
        {inactive && (
          <Group gap="xs" data-testid="environment-inactive-note">
            <Badge color="gray">{t('environment.inactive_badge')}</Badge>
            <Text size="xs" c="gray.7">
              {t('environment.inactive')}
            </Text>
          </Group>
        )}
        <Button
          variant="light"
          onClick={onOpen}
          disabled={inactive}
          loading={opening}
          data-testid="environment-open"
        >
          {t('environment.open')}
        </Button>
      </Stack>
    </Card>
  );
}
