import type { Environment } from '@dossierbase/core';
import {
  Alert,
  Button,
  Center,
  Container,
  Group,
  Loader,
  Menu,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconChevronDown,
  IconLogout,
  IconPlus,
  IconSearch,
  IconTemplate,
  IconTool,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { queryKeys } from '../../api/query-keys';
import { isBuiltRoute } from '../../app/built-routes';
import { AnswerPager } from '../../app/pager';
import { disconnectRealtime } from '../../app/realtime';
import { logout, useTokenData } from '../auth/session';
import { TwoFactorRequired } from '../security/two-factor-required';
import { EnvironmentCard } from './environment-card';
import { EnvironmentInfoModal } from './environment-info-modal';
import { canManageEnvironments } from './environment-store';
import { listEnvironments } from './environments-api';
import { NewEnvironmentModal } from './new-environment-modal';
import { PasswordUpdate } from './password-update';
import { useOpenEnvironment } from './use-open-environment';

/** The Tools menu's pages, each once its screen is built. */
const TOOLS = [{ key: 'templates', to: '/templates', icon: IconTemplate }] as const;

export function EnvironmentPickerPage() {
  const { t } = useTranslation();
  const token = useTokenData();
  const manager = canManageEnvironments(token);
  const forcedUpdate = token?.re_pwd === true;
  const enrolmentRequired = !forcedUpdate && token?.two_factor_required === true;
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(0);
  const [info, setInfo] = useState<Environment | null>(null);
  const [creating, setCreating] = useState(false);
  const { open, openingId } = useOpenEnvironment();
  const autoOpened = useRef(false);
  const tools = TOOLS.filter((tool) => isBuiltRoute(tool.to));

  const params = { page, name };
  const list = useQuery({
    queryKey: queryKeys.environments(params),
    queryFn: ({ signal }) => listEnvironments(params, signal),
    enabled: !forcedUpdate && !enrolmentRequired,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  // A non-admin with exactly one usable environment goes straight into it.
  useEffect(() => {
    const data = list.data;
    if (
      !data ||
      manager ||
      forcedUpdate ||
      enrolmentRequired ||
      autoOpened.current ||
      name !== '' ||
      page !== 0
    )
      return;
    const active = data.results.filter((environment) => environment.active);
    if (data.pager.items === data.results.length && active.length === 1) {
      autoOpened.current = true;
      void open(active[0].id);
    }
  }, [list.data, manager, forcedUpdate, enrolmentRequired, name, page, open]);

  const signOut = async () => {
    disconnectRealtime();
    await logout();
    // A full load drops every in-memory cache of the old session.
    window.location.replace('/');
  };

  return (
    <Container size="xl" py="xl" data-testid="environment-page">
      <Stack gap="lg">
        <Group justify="space-between">
          <Title order={1} size="h2">
            {t('environment.title')}
          </Title>
          <Group gap="xs">
            <Text size="sm" c="dimmed" data-testid="environment-username">
              {token?.username}
            </Text>
            <Button
              variant="subtle"
              leftSection={<IconLogout size={16} />}
              onClick={() => void signOut()}
              data-testid="environment-logout"
            >
              {t('user.logout')}
            </Button>
          </Group>
        </Group>

        {forcedUpdate ? (
          <PasswordUpdate />
        ) : enrolmentRequired ? (
          <TwoFactorRequired />
        ) : (
          <>
            <Group justify="space-between">
              <TextInput
                placeholder={t('environment.search')}
                leftSection={<IconSearch size={16} />}
                value={search}
                onChange={(event) => {
                  setSearch(event.currentTarget.value);
                  setPage(0);
                }}
                w={{ base: '100%', sm: 320 }}
                data-testid="environment-search"
              />
              {manager && (
                <Group gap="xs">
                  {tools.length > 0 && (
                    <Menu position="bottom-end">
                      <Menu.Target>
                        <Button
                          variant="default"
                          leftSection={<IconTool size={16} />}
                          rightSection={<IconChevronDown size={14} />}
                          data-testid="environment-tools"
                        >
                          {t('environment.tools')}
                        </Button>
                      </Menu.Target>
                      <Menu.Dropdown>
                        {tools.map((tool) => (
                          <Menu.Item
                            key={tool.key}
                            component={Link}
                            to={tool.to}
                            leftSection={<tool.icon size={16} />}
                            data-testid={`environment-tools-${tool.key}`}
                          >
                            {t(`environment.${tool.key}`)}
                          </Menu.Item>
                        ))}
                      </Menu.Dropdown>
                    </Menu>
                  )}
                  <Button
                    leftSection={<IconPlus size={16} />}
                    onClick={() => setCreating(true)}
                    data-testid="environment-new"
                  >
                    {t('environment.new')}
                  </Button>
                </Group>
              )}
            </Group>

            {list.isPending ? (
              <Center py="xl">
                <Loader />
              </Center>
            ) : list.isError ? (
              <Alert color="red" data-testid="environment-list-error">
                {t('common.something_went_wrong')}
              </Alert>
            ) : list.data.results.length === 0 ? (
              <Text c="dimmed" ta="center" py="xl" data-testid="environment-empty">
                {t('environment.empty')}
              </Text>
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3, lg: 4 }} data-testid="environment-grid">
                {list.data.results.map((environment) => (
                  <EnvironmentCard
                    key={environment.id}
                    environment={environment}
                    opening={openingId === environment.id}
                    onOpen={() => void open(environment.id)}
                    onInfo={() => setInfo(environment)}
                  />
                ))}
              </SimpleGrid>
            )}

            <Center>
              <AnswerPager
                pager={list.data?.pager}
                page={page}
                onPage={setPage}
                data-testid="environment-pagination"
              />
            </Center>
          </>
        )}
      </Stack>

      <EnvironmentInfoModal
        environment={info}
        opening={info !== null && openingId === info.id}
        onClose={() => setInfo(null)}
        onOpen={(id) => void open(id)}
      />
      {manager && <NewEnvironmentModal opened={creating} onClose={() => setCreating(false)} />}
    </Container>
  );
}
