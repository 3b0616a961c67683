import type { DefDossierDefField, DefDossierLink } from '@dossierbase/core';
import { Box, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import {
  Background,
  Controls,
  type Edge,
  Handle,
  type Node,
  type NodeProps,
  Position,
  ReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '../../app/locale-provider';
import { adminKeys, entityName, listAll, useEntities } from './admin-api';
import { AdminOnly } from './admin-guard';
import { fieldTypeLabel } from './labels';

export function ErdPage() {
  return (
    <AdminOnly>
      <Erd />
    </AdminOnly>
  );
}

type EntityNodeData = { id: number; name: string; fields: { name: string; type: string }[] };

function EntityNode({ data }: NodeProps<Node<EntityNodeData>>) {
  return (
    <Paper withBorder shadow="xs" w={220} data-testid={`erd-node-${data.id}`}>
      <Handle type="target" position={Position.Left} />
      <Box px="xs" py={4} bg="var(--mantine-color-blue-6)" style={{ borderRadius: '4px 4px 0 0' }}>
        <Text size="sm" fw={700} c="white" truncate>
          <Link to={`/fieldeditor/${data.id}`} style={{ color: 'inherit' }}>
            {data.name}
          </Link>
        </Text>
      </Box>
      <Stack gap={0} p={6}>
        {data.fields.length === 0 && (
          <Text size="xs" c="dimmed">
            -
          </Text>
        )}
        {data.fields.map((field) => (
          <Text key={field.name} size="xs" truncate>
            {field.name} <span style={{ color: 'var(--mantine-color-dimmed)' }}>: {field.type}</span>
          </Text>
        ))}
      </Stack>
      <Handle type="source" position={Position.Right} />
    </Paper>
  );
}

const nodeTypes = { entity: EntityNode };

/** Grid positions: columns of 300 px, rows spaced by the tallest node of the row above. */
export function gridLayout(sizes: number[], columns: number): { x: number; y: number }[] {
  const positions: { x: number; y: number }[] = [];
  let y = 0;
  for (let start = 0; start < sizes.length; start += columns) {
    const row = sizes.slice(start, start + columns);
    for (let index = 0; index < row.length; index++) positions.push({ x: index * 300, y });
    y += 60 + Math.max(...row) * 18 + 40;
  }
  return positions;
}

function Erd() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { data: entities = [], isLoading } = useEntities();
  const fieldQueries = useQueries({
    queries: entities.map((entity) => ({
      queryKey: adminKeys.list('defdossierdeffield', { defDossier: entity.id, limit: 500 }),
      queryFn: () => listAll<DefDossierDefField>('defdossierdeffield', { defDossier: entity.id, limit: 500 }),
    })),
  });
  const linkQueries = useQueries({
    queries: entities.map((entity) => ({
      queryKey: adminKeys.list('defdossierlink', { defDossier: entity.id, limit: 500 }),
      queryFn: () => listAll<DefDossierLink>('defdossierlink', { defDossier: entity.id, limit: 500 }),
    })),
  });
  const fieldData = fieldQueries.map((q) => q.data);
  const linkData = linkQueries.map((q) => q.data);

  const { nodes, edges } = useMemo(() => {
    const columns = Math.max(1, Math.ceil(Math.sqrt(entities.length)));
    const fieldLists = entities.map((_, index) => fieldData[index] ?? []);
    const positions = gridLayout(
      fieldLists.map((fields) => fields.length),
      columns,
    );
    const nodes: Node<EntityNodeData>[] = entities.map((entity, index) => ({
      id: String(entity.id),
      type: 'entity',
      position: positions[index],
      data: {
        id: entity.id,
        name: entityName(entity, locale),
        fields: fieldLists[index].map((field) => ({
          name: field.name,
          type: fieldTypeLabel(t, field.def_field.type),
        })),
      },
    }));
    const seen = new Set<number>();
    const edges: Edge[] = [];
    // A link and its backlink are one relation: draw it once, from the link made first.
    const links = linkData.flatMap((list) => list ?? []).sort((a, b) => a.id - b.id);
    for (const link of links) {
      if (seen.has(link.id) || (link.back_link_id && seen.has(link.back_link_id))) continue;
      seen.add(link.id);
      edges.push({
        id: `link-${link.id}`,
        source: String(link.def_dossier_id),
        target: String(link.child_def_dossier_id),
        label: link.name,
        animated: link.type_of_link === 'embeddedList',
      });
    }
    return { nodes, edges };
  }, [entities, fieldData, linkData, locale, t]);

  return (
    <Stack data-testid="erd-page">
      <Title order={1} size="h3">
        {t('admin.erd.title')}
      </Title>
      {isLoading && <Loader />}
      <Box h="75vh" style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 6 }}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          fitView
          nodesConnectable={false}
          nodesDraggable={false}
          elementsSelectable={false}
          proOptions={{ hideAttribution: true }}
        >
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
      </Box>
    </Stack>
  );
}
