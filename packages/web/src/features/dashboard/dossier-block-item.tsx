import type { Block, DisplayItem } from '@dossierbase/core';
import { Paper, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useLocale } from '../../app/locale-provider';
import { BlockContent, blockTitle } from './block-card';
import { dashboardKeys, useBlock } from './dashboard-api';

// A block display item on a dossier page (spec document 3 section 3: block, block_link): the item's
// dashboard block drawn about this dossier, that is over the dossiers linked to it through the item's
// link when it names one. A block the user's roles may not see takes no place.

const HEIGHT = 300;

export function DossierBlockItem({ item, dossierId }: { item: DisplayItem; dossierId: number }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const block = useBlock(Number(item.settings?.block) || 0);
  // a container's children, for its tabs
  const children = useQueries({
    queries: (block.data?.children ?? []).map((id) => ({
      queryKey: dashboardKeys.one(id),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        api.get<Block>(`/mypageblock/${id}`, undefined, signal),
      retry: false,
    })),
  });
  if (!block.data) return null;
  const blocks = new Map<number, Block>([[block.data.id, block.data]]);
  for (const child of children) if (child.data) blocks.set(child.data.id, child.data);
  const linkId = Number(item.settings?.block_link) || undefined;
  const headingId = `dossier-block-${item.id}`;
  return (
    <Paper
      withBorder
      p="sm"
      component="section"
      aria-labelledby={headingId}
      data-testid="dossier-block"
      data-block-id={block.data.id}
    >
      <Title order={3} size="h5" id={headingId} mb="xs">
        {blockTitle(block.data, locale, t)}
      </Title>
      <BlockContent
        block={block.data}
        blocks={blocks}
        dateFormat=""
        height={HEIGHT}
        locale={locale}
        context={{ dossier: dossierId, linkId }}
      />
    </Paper>
  );
}
