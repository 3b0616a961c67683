import { ActionIcon, Anchor, AppShell, Burger, Group, Image, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChartBar, IconStar } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { useClientConfig } from '../../api/config';
import { useTokenData } from '../../features/auth/session';
import { LinkFilterHost } from '../../features/dossiers/link-filter';
import { NewLinkedDossierHost } from '../../features/dossiers/new-linked-dossier';
import {
  environmentSetting,
  isEnvironmentAdmin,
  useEnvironment,
} from '../../features/environments/environment-store';
import { ComposeHost } from '../../features/messages/compose-modal';
import { MessageBell } from '../../features/messages/message-bell';
import { PopupMessages } from '../../features/messages/popup-messages';
import { RealtimeSync } from '../../features/realtime/realtime-sync';
import { isBuiltRoute } from '../built-routes';
import { truncate } from '../format';
import { HelpContact } from '../help-contact';
import { STORAGE_KEYS } from '../local-store';
import { joinEnvironmentRoom } from '../realtime';
import { FavouritesPanel } from './favourites-panel';
import { LanguageSwitch } from './language-switch';
import { MainMenu } from './main-menu';
import { QuickSearch } from './quick-search';
import { MAIN_ID, SkipLink, useFocusOnNavigation } from './skip-link';
import { SubscriptionNotice } from './subscription-notice';
import { UserMenu } from './user-menu';

const SMALL_SCREEN = '(max-width: 576px)';

// Two states, as Mantine's AppShell has: the wide-screen menu, kept locally, and the small-screen
// menu, closed whenever the screen becomes small. A moment of small width (Chromium reports a window
// of no width while its viewport changes) closes only the small-screen menu; the wide one stays as it was.
function useMenuState() {
  const [wideOpen, setWideOpen] = useState(() => localStorage.getItem(STORAGE_KEYS.menuOpen) !== 'false');
  const [smallOpen, setSmallOpen] = useState(false);
  const small = useMediaQuery(SMALL_SCREEN, undefined, { getInitialValueInEffect: false });
  useEffect(() => {
    if (small) setSmallOpen(false);
  }, [small]);
  const setOpen = (next: boolean) => {
    if (small) return setSmallOpen(next);
    localStorage.setItem(STORAGE_KEYS.menuOpen, String(next));
    setWideOpen(next);
  };
  return { open: small ? smallOpen : wideOpen, setOpen, small };
}

export function MainShell() {
  const { t } = useTranslation();
  const token = useTokenData();
  const environment = useEnvironment();
  const { config } = useClientConfig();
  const { open, setOpen, small } = useMenuState();
  const [favouritesOpen, setFavouritesOpen] = useState(false);
  useFocusOnNavigation();

  useEffect(() => {
    if (environment) joinEnvironmentRoom(environment.id);
  }, [environment?.id, environment]);

  if (!environment) return null;
  const admin = isEnvironmentAdmin(environment);
  const showReports = isBuiltRoute('/reports') && environment.abilities?.canSeeReports;
  // the environment's own help contact and accent colour (/environment/edit, /layout)
  const accent = environmentSetting(environment, 'color');
  const helpContact = environmentSetting(environment, 'help_contact') ?? config.help_contact;

  return (
    <AppShell
      header={{ height: 60 }}
      footer={{ height: 36 }}
      navbar={{ width: 280, breakpoint: 'xs', collapsed: { mobile: !open, desktop: !open } }}
      padding="md"
      data-testid="main-shell"
      data-menu-open={open}
    >
      <AppShell.Header
        style={accent ? { borderTop: `4px solid ${accent}` } : undefined}
        data-testid="shell-header"
      >
        <SkipLink />
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Burger
              opened={open}
              onClick={() => setOpen(!open)}
              size="sm"
              aria-label={t('menu.toggle')}
              data-testid="menu-toggle"
            />
            <Anchor
              component={Link}
              to="/environment"
              underline="never"
              c="inherit"
              data-testid="shell-environment-link"
              style={{ minWidth: 0 }}
            >
              <Group gap="xs" wrap="nowrap">
                {environment.logo && (
                  <Image
                    src={environment.logo}
                    alt=""
                    h={32}
                    w="auto"
                    fit="contain"
                    data-testid="shell-logo"
                  />
                )}
                <Text fw={700} truncate data-testid="shell-environment-name">
                  {truncate(environment.name, 25)}
                </Text>
              </Group>
            </Anchor>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {environment.abilities?.canQuickSearch && <QuickSearch />}
            <MessageBell />
            <LanguageSwitch />
            {showReports && (
              <Tooltip label={t('shell.reports')}>
                <ActionIcon
                  component={Link}
                  to="/reports"
                  variant="subtle"
                  size="lg"
                  aria-label={t('shell.reports')}
                  data-testid="shell-reports"
                >
                  <IconChartBar size={20} />
                </ActionIcon>
              </Tooltip>
            )}
            <Tooltip label={t('shell.favourites')}>
              <ActionIcon
                variant="subtle"
                size="lg"
                aria-label={t('shell.favourites')}
                aria-expanded={favouritesOpen}
                onClick={() => setFavouritesOpen(!favouritesOpen)}
                data-testid="shell-favourites"
              >
                <IconStar size={20} />
              </ActionIcon>
            </Tooltip>
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs">
        <MainMenu environment={environment} admin={admin} onNavigate={() => small && setOpen(false)} />
      </AppShell.Navbar>

      <AppShell.Main id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
        <Outlet />
      </AppShell.Main>

      <AppShell.Footer>
        <Group h="100%" px="md" justify="space-between" data-testid="shell-footer">
          <Text size="xs" c="dimmed" data-testid="shell-help-contact">
            {helpContact && (
              <>
                {t('shell.help')}: <HelpContact contact={helpContact} size="xs" />
              </>
            )}
          </Text>
          <Text size="xs" c="dimmed" data-testid="shell-release">
            {config.release ? t('shell.release', { version: config.release }) : ''}
          </Text>
        </Group>
      </AppShell.Footer>

      <FavouritesPanel opened={favouritesOpen} onClose={() => setFavouritesOpen(false)} />
      <ComposeHost />
      <PopupMessages />
      <NewLinkedDossierHost />
      <LinkFilterHost />
      {token?.abilities?.canHoldSubscriptions && <SubscriptionNotice />}
      <RealtimeSync />
    </AppShell>
  );
}
