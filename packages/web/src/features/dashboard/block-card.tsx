import type { Block } from '@dossierbase/core';
import { Carousel } from '@mantine/carousel';
import { Accordion, ActionIcon, Group, Menu, Paper, Tabs, Title, Tooltip } from '@mantine/core';
import { IconArrowsMaximize, IconArrowsMove, IconEyeOff, IconSettings } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { pickTranslation } from '../admin/admin-api';
import { BlockBody, NoItems } from './block-renderers';
import { BlockError, BlockLoading } from './block-states';
import { type BlockDataParams, type ContainerAnswer, useBlockData } from './dashboard-api';
import { DossierListBlock } from './dashboard-list-block';
import { ADJUSTMENTS, type Adjustment } from './grid-layout';
import { useLazyVisible } from './use-lazy-visible';

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
  /** the date grouping chosen on the dashboard ('' keeps each block's own) */
  dateFormat: string;
  height: number;
  locale: string | null;
  /** a dossier page's context: the dossier (and the link) the block is about */
  context?: { dossier: number; linkId?: number };
  /** read the data at once, not only once the block has been in view (the expanded modal) */
  eager?: boolean;
}

/** The parameters of the block's data call. */
const paramsOf = ({
  dateFormat,
  context,
}: Pick<ContentProps, 'dateFormat' | 'context'>): BlockDataParams => ({
  date_format: dateFormat || undefined,
  dossier: context?.dossier,
  linkId: context?.dossier ? context.linkId : undefined,
});

/**
 * The block's data, fetched once the block has been half in view for a second, and drawn by its type;
 * a container's children as tabs, a carousel or an accordion.
 */
export function BlockContent(props: ContentProps) {
  const { ref, seen } = useLazyVisible<HTMLDivElement>(props.eager);
  return (
    <div ref={ref} style={{ minHeight: '100%' }} data-testid="block-content" data-loaded={seen}>
      {props.block.type === 'dashboard' ? (
        <DossierListBlock block={props.block} params={paramsOf(props)} height={props.height} enabled={seen} />
      ) : (
        <BlockData {...props} enabled={seen} />
      )}
    </div>
  );
}

function BlockData({ enabled, ...props }: ContentProps & { enabled: boolean }) {
  const { block, height } = props;
  const data = useBlockData<unknown>(block, paramsOf(props), enabled);
  if (!enabled || data.isPending) return <BlockLoading height={height} />;
  if (data.isError) return <BlockError error={data.error} />;
  if (block.type === 'block_container')
    return <ContainerChildren {...props} childIds={(data.data as ContainerAnswer).children} />;
  return <BlockBody block={block} data={data.data} height={height} renderChild={() => null} />;
}

/** A container's children in its layout: tabs across or down, a carousel, or an accordion. */
function ContainerChildren({ childIds: ids, ...props }: ContentProps & { childIds: number[] }) {
  const { t } = useTranslation();
  const { block, blocks, locale, height } = props;
  const children = ids.map((id) => blocks.get(id)).filter((child): child is Block => child !== undefined);
  if (children.length === 0) return <NoItems />;
  const content = (child: Block, childHeight: number) => (
    <BlockContent {...props} block={child} height={childHeight} eager={props.eager} />
  );
  const layout = block.settings.layout;
  if (layout === 'accordion')
    return (
      <Accordion
        defaultValue={String(children[0].id)}
        variant="separated"
        data-testid="block-container-accordion"
      >
        {children.map((child) => (
          <Accordion.Item key={child.id} value={String(child.id)}>
            <Accordion.Control data-testid="block-container-section">
              {blockTitle(child, locale, t)}
            </Accordion.Control>
            <Accordion.Panel>{content(child, height - 50 * children.length)}</Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    );
  if (layout === 'carousel')
    return (
      <Carousel
        withIndicators
        emblaOptions={{ align: 'start' }}
        controlsOffset={0}
        pb={24}
        previousControlProps={{ 'aria-label': t('dashboard_page.previous') }}
        nextControlProps={{ 'aria-label': t('dashboard_page.next') }}
        data-testid="block-container-carousel"
      >
        {children.map((child) => (
          <Carousel.Slide key={child.id} px={36} pb={24} data-testid="block-container-slide">
            <Title order={3} size="h6" mb={4}>
              {blockTitle(child, locale, t)}
            </Title>
            {content(child, height - 60)}
          </Carousel.Slide>
        ))}
      </Carousel>
    );
  const vertical = layout === 'vertical';
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
          {content(child, height - 50)}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

interface CardProps extends ContentProps {
  admin: boolean;
  onEdit: (block: Block) => void;
  /** hides the block from this view (restored from the dashboard's toolbar) */
  onHide?: () => void;
  /** opens the block in a large, printable modal */
  onExpand?: () => void;
  /** While arranging: move or resize the block a step (the menu works by keyboard). */
  onAdjust?: (change: Adjustment) => void;
}

export function BlockCard({ admin, onEdit, onAdjust, onHide, onExpand, ...props }: CardProps) {
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
          {onExpand && (
            <Tooltip label={t('dashboard_page.expand')}>
              <ActionIcon
                variant="subtle"
                aria-label={t('dashboard_page.expand_named', { title })}
                onClick={onExpand}
                data-testid="block-expand"
              >
                <IconArrowsMaximize size={16} />
              </ActionIcon>
            </Tooltip>
          )}
          {onHide && (
            <Tooltip label={t('dashboard_page.hide')}>
              <ActionIcon
                variant="subtle"
                aria-label={t('dashboard_page.hide_named', { title })}
                onClick={onHide}
                data-testid="block-hide"
              >
                <IconEyeOff size={16} />
              </ActionIcon>
            </Tooltip>
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
