import { ActionIcon, Divider, Group, NavLink, ScrollArea, Text, Tooltip } from '@mantine/core';
import {
  IconEyeOff,
  IconFolder,
  IconFolders,
  IconLayoutDashboard,
  IconPlus,
  IconSettings,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import type { StoredEnvironment } from '../../features/environments/environment-store';
import { isBuiltRoute } from '../built-routes';
import { useLocale } from '../locale-provider';
import { buildEntityMenu, type MenuEntity } from './entity-menu';

/** The admin settings pages; a page shows in the menu once its screen is built. */
export const ADMIN_LINKS = [
  { key: 'generic', to: '/environment/edit' },
  { key: 'datastructures', to: '/datastructure' },
  { key: 'erd', to: '/erd' },
  { key: 'roles', to: '/roles' },
  { key: 'permissions', to: '/permissions' },
  { key: 'logs', to: '/logs' },
  { key: 'user_activity', to: '/useractivity' },
  { key: 'files', to: '/files' },
  { key: 'users', to: '/user' },
  { key: 'languages', to: '/languages' },
  { key: 'blocks', to: '/blocks' },
  { key: 'modules', to: '/modules' },
  { key: 'events', to: '/events' },
  { key: 'kedocx', to: '/wordkedocx' },
  { key: 'querybuilder', to: '/querybuilder' },
  { key: 'webhooks', to: '/webhooks' },
] as const;

interface MainMenuProps {
  environment: StoredEnvironment;
  admin: boolean;
  onNavigate: () => void;
}

export function MainMenu({ environment, admin, onNavigate }: MainMenuProps) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const { locale } = useLocale();
  const entities = buildEntityMenu(environment, locale);
  const here = `${pathname}${search}`;
  const adminLinks = ADMIN_LINKS.filter((link) => isBuiltRoute(link.to));

  const entityLink = (entity: MenuEntity) => (
    <NavLink
      key={entity.id}
      component={Link}
      to={entity.href}
      label={entity.name}
      leftSection={<IconFolder size={16} />}
      active={pathname === `/defdossier/${entity.id}`}
      // An entry with menu queries opens and closes their list (Mantine keeps the link from
      // following): it still opens the entity's list, as an entry without them does.
      defaultOpened={pathname === `/defdossier/${entity.id}`}
      onClick={() => {
        if (entity.queries.length > 0) navigate(entity.href);
        onNavigate();
      }}
      data-testid="menu-entity"
      data-entity-id={entity.id}
      childrenOffset={28}
    >
      {entity.queries.length > 0
        ? entity.queries.map((query) => (
            <NavLink
              key={query.id}
              component={Link}
              to={query.href}
              label={query.name}
              active={here === query.href}
              onClick={onNavigate}
              data-testid="menu-entity-query"
              data-query-id={query.id}
            />
          ))
        : undefined}
    </NavLink>
  );

  return (
    <ScrollArea type="auto" h="100%" data-testid="main-menu">
      <NavLink
        component={Link}
        to="/"
        label={t('menu.dashboard')}
        leftSection={<IconLayoutDashboard size={18} />}
        active={pathname === '/'}
        onClick={onNavigate}
        data-testid="menu-dashboard"
      />
      {admin && adminLinks.length > 0 && (
        <NavLink
          label={t('menu.admin_settings')}
          leftSection={<IconSettings size={18} />}
          defaultOpened={adminLinks.some((link) => link.to === pathname)}
          childrenOffset={28}
          data-testid="menu-admin"
        >
          {adminLinks.map((link) => (
            <NavLink
              key={link.key}
              component={Link}
              to={link.to}
              label={t(`menu.admin.${link.key}`)}
              active={pathname === link.to}
              onClick={onNavigate}
              data-testid={`menu-admin-${link.key}`}
            />
          ))}
        </NavLink>
      )}
      <Divider my="xs" />
      <Group justify="space-between" px="sm" py={4}>
        <Text size="xs" fw={700} c="dimmed" tt="uppercase">
          {t('menu.entities')}
        </Text>
        {admin && (
          <Tooltip label={t('menu.add_entity')}>
            <ActionIcon
              component={Link}
              to="/defdossier/edit/0"
              variant="subtle"
              size="sm"
              onClick={onNavigate}
              aria-label={t('menu.add_entity')}
              data-testid="menu-add-entity"
            >
              <IconPlus size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      {entities.main.length === 0 && entities.other.length === 0 && entities.hidden.length === 0 && (
        <Text size="sm" c="dimmed" px="sm" data-testid="menu-no-entities">
          {t('menu.no_entities')}
        </Text>
      )}
      {entities.main.map(entityLink)}
      {entities.other.length > 0 && (
        <NavLink
          label={t('menu.other')}
          leftSection={<IconFolders size={18} />}
          childrenOffset={16}
          data-testid="menu-other"
        >
          {entities.other.map(entityLink)}
        </NavLink>
      )}
      {entities.hidden.length > 0 && (
        <NavLink
          label={t('menu.hidden')}
          leftSection={<IconEyeOff size={18} />}
          childrenOffset={16}
          data-testid="menu-hidden"
        >
          {entities.hidden.map(entityLink)}
        </NavLink>
      )}
    </ScrollArea>
  );
}
