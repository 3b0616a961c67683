import 'react-grid-layout/css/styles.css';
import './dashboard.css';
import { type Block, DATE_FORMATS } from '@dossierbase/core';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import {
  IconEye,
  IconLayoutGrid,
  IconMaximize,
  IconMinimize,
  IconPlus,
  IconPrinter,
} from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type Layout, ResponsiveGridLayout, useContainerWidth } from 'react-grid-layout';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifyError, notifySuccess } from '../../api/errors';
import { useLocale } from '../../app/locale-provider';
import { useTokenData } from '../auth/session';
import { isEnvironmentAdmin, useEnvironment } from '../environments/environment-store';
import { BlockCard, blockTitle } from './block-card';
import { BlockEditorModal } from './block-editor-modal';
import { BlockExpandModal } from './block-expand-modal';
import { savePositions, useDashboardBlocks, useRefreshDashboard } from './dashboard-api';
import {
  type Adjustment,
  adjusted,
  BREAKPOINTS,
  COLUMNS,
  dashboardBlocks,
  type GridItem,
  gridLayout,
  MIN_SIZE,
  positionsToSave,
  ROW_HEIGHT,
} from './grid-layout';
import { useHiddenBlocks } from './hidden-blocks';
import { usePresentation } from './presentation';

// The dashboard (/): the blocks the user may see on a grid of their own view (or the default one
// until they arrange it). Arranging is off until turned on; then every move and resize is saved.
// Admins add and edit blocks, and arrange the default view everyone starts from.

const MARGIN = 10;

/** Whether two grids hold the same blocks at the same places and sizes. */
const samePlaces = (a: Layout, b: readonly GridItem[]) =>
  a.length === b.length &&
  a.every((item) => {
    const other = b.find((o) => o.i === item.i);
    return other && other.x === item.x && other.y === item.y && other.w === item.w && other.h === item.h;
  });
type View = 'mine' | 'default';

export function DashboardPage() {
  const { t } = useTranslation();
  const environment = useEnvironment();
  const environmentId = environment?.id ?? 0;
  const admin = isEnvironmentAdmin(environment);
  const { locale } = useLocale();
  const [view, setView] = useState<View>('mine');
  const [arranging, setArranging] = useState(false);
  const [dateFormat, setDateFormat] = useState<string>('');
  const [editing, setEditing] = useState<Block | 'new' | null>(null);
  const [expanded, setExpanded] = useState<Block | null>(null);
  const token = useTokenData();
  const hiding = useHiddenBlocks(environmentId, token?.user_id ?? 0, admin ? view : 'mine');
  const presentation = usePresentation();
  const blocks = useDashboardBlocks(environmentId, admin && view === 'default');
  const refresh = useRefreshDashboard();
  const navigate = useNavigate();

  const byId = useMemo(() => new Map((blocks.data?.results ?? []).map((b) => [b.id, b])), [blocks.data]);
  const shown = useMemo(() => dashboardBlocks(blocks.data?.results ?? []), [blocks.data]);
  const initial = useMemo(() => gridLayout(shown, blocks.data?.positions ?? []), [shown, blocks.data]);
  const [layout, setLayout] = useState<GridItem[]>(initial);
  useEffect(() => setLayout(initial), [initial]);
  // hidden blocks leave the grid but keep their place, which is saved with the others
  const hiddenKey = [...hiding.hidden].sort().join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: hiddenKey stands for the hidden set
  const gridItems = useMemo(() => layout.filter((item) => !hiding.hidden.has(item.i)), [layout, hiddenKey]);
  const withHidden = (items: Layout): Layout => [
    ...items,
    ...layout.filter((item) => hiding.hidden.has(item.i) && !items.some((i) => i.i === item.i)),
  ];
  const hiddenBlocks = shown.filter((block) => hiding.hidden.has(block.uuid));
  // the same object while the layout stays: a new one would reset a drag under way
  // the one layout of 12 columns for each breakpoint of 12 columns, so that the library does not make
  // its own for md and sm (only the narrower ones, of fewer columns, are its own)
  const layouts = useMemo(() => ({ lg: gridItems, md: gridItems, sm: gridItems }), [gridItems]);

  const save = useMutation({
    mutationFn: (items: Layout) =>
      savePositions(environmentId, positionsToSave(items), admin && view === 'default'),
    onError: (error) => notifyError(error, t),
  });
  const saveDefault = useMutation({
    mutationFn: () => savePositions(environmentId, positionsToSave(layout), true),
    onSuccess: () => notifySuccess(t('dashboard.default_saved')),
    onError: (error) => notifyError(error, t),
  });
  const columns = useRef(12);
  const { width: measured, containerRef, mounted } = useContainerWidth();
  // the width stays while a block is moved or resized: a scroll bar coming or going would end the move
  const [frozen, setFrozen] = useState<number | null>(null);
  // a width of 0 (the page hidden or leaving for a moment) is not a screen of 0 pixels: the grid keeps
  // its last width rather than build the layout of its narrowest breakpoint
  const lastWidth = useRef(0);
  if (measured > 0) lastWidth.current = measured;
  const width = frozen ?? (measured > 0 ? measured : lastWidth.current);

  const started = () => setFrozen(measured);
  /** Moves or resizes a block by grid steps (the block's Arrange menu, by keyboard too), and saves. */
  const adjust = (uuid: string, change: Adjustment) => {
    const next = layout.map((item) => (item.i === uuid ? adjusted(item, change) : item));
    setLayout(next);
    save.mutate(next);
  };
  const stopped = (items: Layout) => {
    setFrozen(null);
    // positions are kept for the full grid of 12 columns; a narrow screen only shows them
    if (!arranging || columns.current !== 12) return;
    const all = withHidden(items);
    setLayout(all.map((item) => ({ ...item, minW: 5, minH: 5 })) as GridItem[]);
    save.mutate(all);
  };

  return (
    // measured from the first render: the grid takes the page's width
    <Stack gap="sm" data-testid="dashboard-page" ref={containerRef}>
      <Group justify="space-between" align="flex-end" className="dashboard-toolbar">
        <div>
          <Title order={1}>{t('dashboard.title')}</Title>
          <Text c="dimmed" size="sm" data-testid="dashboard-environment-name">
            {environment?.name}
          </Text>
        </div>
        <Group gap="sm" align="flex-end">
          {admin && (
            <SegmentedControl
              aria-label={t('dashboard.view')}
              value={view}
              onChange={(value) => setView(value as View)}
              data={[
                { value: 'mine', label: t('dashboard.my_view') },
                { value: 'default', label: t('dashboard.default_view') },
              ]}
              data-testid="dashboard-view"
            />
          )}
          <Select
            label={t('dashboard.date_grouping')}
            value={dateFormat}
            onChange={(value) => setDateFormat(value ?? '')}
            data={[
              { value: '', label: t('dashboard.date_format.block') },
              ...DATE_FORMATS.map((f) => ({ value: f, label: t(`dashboard.date_format.${f}`) })),
            ]}
            allowDeselect={false}
            w={170}
            data-testid="dashboard-date-format"
          />
          <Switch
            label={t('dashboard.arrange')}
            checked={arranging}
            onChange={(event) => setArranging(event.currentTarget.checked)}
            data-testid="dashboard-arrange"
            mb={8}
          />
          {admin && view === 'mine' && shown.length > 0 && (
            <Button
              variant="default"
              leftSection={<IconLayoutGrid size={16} />}
              onClick={() => saveDefault.mutate()}
              loading={saveDefault.isPending}
              data-testid="dashboard-save-default"
            >
              {t('dashboard.save_default')}
            </Button>
          )}
          <Button
            variant="default"
            leftSection={<IconPrinter size={16} />}
            onClick={() => window.print()}
            data-testid="dashboard-print"
          >
            {t('dashboard.print')}
          </Button>
          <Button
            variant={presentation.on ? 'filled' : 'default'}
            leftSection={presentation.on ? <IconMinimize size={16} /> : <IconMaximize size={16} />}
            onClick={presentation.toggle}
            aria-pressed={presentation.on}
            data-testid="dashboard-presentation"
          >
            {presentation.on ? t('dashboard_page.end_presentation') : t('dashboard_page.presentation')}
          </Button>
          {hiddenBlocks.length > 0 && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" leftSection={<IconEye size={16} />} data-testid="dashboard-restore">
                  {t('dashboard_page.restore_hidden', { count: hiddenBlocks.length })}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {hiddenBlocks.map((block) => (
                  <Menu.Item
                    key={block.uuid}
                    onClick={() => hiding.restore(block.uuid)}
                    data-testid="dashboard-restore-block"
                  >
                    {blockTitle(block, locale, t)}
                  </Menu.Item>
                ))}
                <Menu.Divider />
                <Menu.Item onClick={hiding.restoreAll} data-testid="dashboard-restore-all">
                  {t('dashboard_page.restore_all')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
          {admin && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setEditing('new')}
              data-testid="dashboard-add-block"
            >
              {t('dashboard.add_block')}
            </Button>
          )}
        </Group>
      </Group>
      {arranging && (
        <Text size="sm" c="dimmed" data-testid="dashboard-arrange-hint">
          {admin && view === 'default' ? t('dashboard.arrange_default_hint') : t('dashboard.arrange_hint')}
        </Text>
      )}
      {blocks.isPending ? (
        <Center mih={200}>
          <Loader />
        </Center>
      ) : blocks.isError ? (
        <Alert color="red">{t('common.something_went_wrong')}</Alert>
      ) : shown.length === 0 ? (
        <Text c="dimmed" data-testid="dashboard-empty">
          {environment?.description || t('dashboard.no_blocks')}
        </Text>
      ) : (
        <div data-testid="dashboard-grid" data-arranging={arranging}>
          {mounted && (
            <ResponsiveGridLayout
              width={width}
              layouts={layouts}
              breakpoints={BREAKPOINTS}
              cols={COLUMNS}
              rowHeight={ROW_HEIGHT}
              margin={[MARGIN, MARGIN]}
              dragConfig={{ enabled: arranging, cancel: '.block-no-drag' }}
              resizeConfig={{ enabled: arranging }}
              onBreakpointChange={(_breakpoint, cols) => {
                columns.current = cols;
              }}
              onLayoutChange={(current, all) => {
                // the grid as the library compacted it, so that the first move starts from it
                // (only when it moved something: a new but equal layout would be handed back to it).
                // Only a layout of 12 columns, known by the breakpoint it is kept under: the library
                // may hand over a narrow breakpoint's layout after onBreakpointChange has already
                // said 12, and that layout taken for the 12 columns' made the grid flip between the two
                // on every frame.
                const breakpoint = (Object.keys(all) as (keyof typeof COLUMNS)[]).find(
                  (name) => all[name] === current,
                );
                if (breakpoint && COLUMNS[breakpoint] === 12 && !samePlaces(current, gridItems))
                  setLayout(withHidden(current).map((item) => ({ ...item, minW: MIN_SIZE, minH: MIN_SIZE })));
              }}
              onDragStart={started}
              onResizeStart={started}
              onDragStop={stopped}
              onResizeStop={stopped}
            >
              {gridItems.map((item) => {
                const block = shown.find((b) => b.uuid === item.i);
                if (!block) return null;
                return (
                  <div key={item.i} data-testid="grid-item" data-uuid={item.i}>
                    <BlockCard
                      block={block}
                      blocks={byId}
                      dateFormat={dateFormat}
                      height={item.h * ROW_HEIGHT + (item.h - 1) * MARGIN - 60}
                      locale={locale}
                      admin={admin}
                      onEdit={setEditing}
                      onHide={() => hiding.hide(block.uuid)}
                      onExpand={() => setExpanded(block)}
                      onAdjust={arranging ? (change) => adjust(item.i, change) : undefined}
                    />
                  </div>
                );
              })}
            </ResponsiveGridLayout>
          )}
        </div>
      )}
      {expanded && (
        <BlockExpandModal
          block={expanded}
          blocks={byId}
          dateFormat={dateFormat}
          locale={locale}
          onClose={() => setExpanded(null)}
        />
      )}
      {admin && editing !== null && (
        <BlockEditorModal
          block={editing === 'new' ? null : editing}
          blocks={blocks.data?.results ?? []}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
          }}
          onDeleted={() => {
            setEditing(null);
            void refresh();
            void navigate('/');
          }}
        />
      )}
    </Stack>
  );
}
