import type { Block } from '@dossierbase/core';
import {
  ActionIcon,
  Alert,
  Center,
  Group,
  Loader,
  Menu,
  Paper,
  Tabs,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowsMove, IconSettings } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { actionErrorMessage } from '../../api/errors';
import { pickTranslation } from '../admin/admin-api';
import { BlockBody, NoItems } from './block-renderers';
import { type ContainerAnswer, useBlockData } from './dashboard-api';
import { ADJUSTMENTS, type Adjustment } from './grid-layout';

// A block on the dashboard: its title in the user's language, its data drawn by its type, and for
// admins a button opening the block editor. A block whose data call fails says so; the others still
// draw.

/** The block's title in the user's language, else its first, else the name of its type. */
export function blockTitle(block: Block, locale: string | null, t: TFunction): string {
  return (
    pickTranslation(
      block.translations.filter((tr) => tr.title),
      locale,
    )?.title || t(`dashboard.types.${block.type}`)
  );
}

interface ContentProps {
  block: Block;
  blocks: ReadonlyMap<number, Block>;
  dateFormat: string;
  height: number;
  locale: string | null;
}

/** The block's data, fetched and drawn; a container's children as tabs. */
export function BlockContent({ block, blocks, dateFormat, height, locale }: ContentProps) {
  const { t } = useTranslation();
  const data = useBlockData<unknown>(block.id, dateFormat);
  if (data.isPending)
    return (
      <Center h={Math.min(height, 80)}>
        <Loader size="sm" aria-label={t('dashboard.loading')} />
      </Center>
    );
  if (data.isError)
    return (
      <Alert color="red" icon={<IconAlertTriangle size={16} />} data-testid="block-error" p="xs">
        <Text size="sm">{t('common.something_went_wrong')}</Text>
        {actionErrorMessage(data.error, t) !== t('common.something_went_wrong') && (
          <Text size="xs">{actionErrorMessage(data.error, t)}</Text>
        )}
      </Alert>
    );
  if (block.type === 'block_container') {
    const children = (data.data as ContainerAnswer).children
      .map((id) => blocks.get(id))
      .filter((child): child is Block => child !== undefined);
    if (children.length === 0) return <NoItems />;
    const vertical = block.settings.layout === 'vertical';
    return (
      <Tabs
        defaultValue={String(children[0].id)}
        orientation={vertical ? 'vertical' : 'horizontal'}
        keepMounted={false}
        data-testid="block-container-tabs"
      >
        <Tabs.List>
          {children.map((child) => (
            <Tabs.Tab key={child.id} value={String(child.id)} data-testid="block-container-tab">
              {blockTitle(child, locale, t)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {children.map((child) => (
          <Tabs.Panel key={child.id} value={String(child.id)} pt="xs" px={vertical ? 'xs' : 0}>
            <BlockContent
              block={child}
              blocks={blocks}
              dateFormat={dateFormat}
              height={height - 50}
              locale={locale}
            />
          </Tabs.Panel>
        ))}
      </Tabs>
    );
  }
  return <BlockBody block={block} data={data.data} height={height} renderChild={() => null} />;
}

interface CardProps extends ContentProps {
  admin: boolean;
  onEdit: (block: Block) => void;
  /** While arranging: move or resize the block a step (the menu works by keyboard). */
  onAdjust?: (change: Adjustment) => void;
}

export function BlockCard({ admin, onEdit, onAdjust, ...props }: CardProps) {
  const { t } = useTranslation();
  const title = blockTitle(props.block, props.locale, t);
  const headingId = `block-title-${props.block.id}`;
  return (
    <Paper
      withBorder
      p="sm"
      h="100%"
      component="section"
      aria-labelledby={headingId}
      data-testid="dashboard-block"
      data-block-id={props.block.id}
      data-block-type={props.block.type}
      style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
    >
      <Group justify="space-between" wrap="nowrap" mb="xs" className="block-drag-handle">
        <Title order={2} size="h5" id={headingId} lineClamp={1}>
          {title}
        </Title>
        <Group gap={4} wrap="nowrap" className="block-no-drag">
          {onAdjust && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon
                  variant="subtle"
                  aria-label={t('dashboard.arrange_block', { title })}
                  data-testid="block-arrange"
                >
                  <IconArrowsMove size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {ADJUSTMENTS.map((change) => (
                  <Menu.Item
                    key={change}
                    closeMenuOnClick={false}
                    onClick={() => onAdjust(change)}
                    data-testid={`block-arrange-${change}`}
                  >
                    {t(`dashboard.adjust.${change}`)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
          {admin && (
            <Tooltip label={t('dashboard.edit_block')}>
              <ActionIcon
                variant="subtle"
                aria-label={t('dashboard.edit_block_named', { title })}
                onClick={() => onEdit(props.block)}
                data-testid="block-edit"
              >
                <IconSettings size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
      {/* the block's own scroll, reachable by keyboard */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus to scroll by keyboard */}
      <div style={{ flex: 1, minHeight: 0, overflow: 'auto' }} className="block-no-drag" tabIndex={0}>
        <BlockContent {...props} />
      </div>
    </Paper>
  );
}
