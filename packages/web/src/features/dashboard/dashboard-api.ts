import {
  type Block,
  type BlockPosition,
  type DossierListBody,
  type Pager,
  REFRESH_RATES,
  type RefreshRate,
} from '@dossierbase/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

// Dashboard blocks (/api/mypageblock), their data (/api/mypageblock/{id}/data) and the grid of the
// user's or the default view (/api/mypage/{environment}/position).

export const dashboardKeys = {
  all: ['dashboard'] as const,
  blocks: (environment: number, defaultView: boolean) => ['dashboard', 'blocks', environment, defaultView],
  data: (id: number, params: Record<string, unknown>) => ['dashboard', 'data', id, params],
  admin: (environment: number, search: string, page: number) => [
    'dashboard',
    'admin',
    environment,
    search,
    page,
  ],
  one: (id: number) => ['dashboard', 'one', id],
};

export interface BlockPage {
  results: Block[];
  pager: Pager;
  positions: BlockPosition[];
}

/** The dashboard's blocks (the container's children too) and the positions of the view. */
export function useDashboardBlocks(environment: number, defaultView: boolean) {
  return useQuery({
    queryKey: dashboardKeys.blocks(environment, defaultView),
    queryFn: ({ signal }) =>
      api.get<BlockPage>(
        '/mypageblock',
        { environment, limit: 500, ...(defaultView ? { default: true } : {}) },
        signal,
      ),
    enabled: environment > 0,
  });
}

/** Every block of the environment, a page at a time (the /blocks list). */
export function useBlockList(environment: number, search: string, page: number) {
  return useQuery({
    queryKey: dashboardKeys.admin(environment, search, page),
    queryFn: ({ signal }) =>
      api.get<BlockPage>(
        '/mypageblock',
        { environment, limit: 20, page, search: search || undefined },
        signal,
      ),
    enabled: environment > 0,
    placeholderData: keepPreviousData,
  });
}

export function useBlock(id: number) {
  return useQuery({
    queryKey: dashboardKeys.one(id),
    queryFn: ({ signal }) => api.get<Block>(`/mypageblock/${id}`, undefined, signal),
    enabled: id > 0,
  });
}

/** What a block's data is read for: the date grouping, a dossier's context, a list block's tab. */
export interface BlockDataParams {
  date_format?: string;
  dossier?: number;
  linkId?: number;
  query?: number;
}

/** Milliseconds between reads of a block's data: its refresh_rate setting, thirty minutes by default. */
export function refreshIntervalOf(block: Pick<Block, 'settings'>): number {
  const rate = block.settings.refresh_rate;
  const minutes = typeof rate === 'string' && rate in REFRESH_RATES ? REFRESH_RATES[rate as RefreshRate] : 30;
  return minutes * 60 * 1000;
}

export function useBlockData<T>(
  block: Pick<Block, 'id' | 'settings'>,
  params: BlockDataParams,
  enabled = true,
) {
  const shown = Object.fromEntries(
    Object.entries(params).filter(([, value]) => value !== undefined && value !== ''),
  );
  return useQuery({
    queryKey: dashboardKeys.data(block.id, shown),
    queryFn: ({ signal }) => api.get<T>(`/mypageblock/${block.id}/data`, shown, signal),
    enabled,
    retry: false,
    refetchInterval: refreshIntervalOf(block),
  });
}

export interface PositionSave {
  block: number | string;
  xPos: number;
  yPos: number;
  blockWidth: number;
  blockHeight: number;
}

export const savePositions = (environment: number, blocks: PositionSave[], asDefault: boolean) =>
  api.patch<{ positions: BlockPosition[] }>(`/mypage/${environment}/position`, {
    blocks,
    ...(asDefault ? { default: true } : {}),
  });

export const createBlock = (body: Record<string, unknown>) => api.post<Block>('/mypageblock', body);
export const patchBlock = (id: number, body: Record<string, unknown>) =>
  api.patch<Block>(`/mypageblock/${id}`, body);
export const deleteBlock = (id: number) => api.delete<unknown>(`/mypageblock/${id}`);

export function useRefreshDashboard() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
}

// The data answers, per block type (packages/server/src/resources/dashboard/data.ts).
export interface OptionCounts {
  options: { id: number; label: string; color: string | null }[];
  rows: { period: string | null; option: number | null; count: number }[];
}
export interface LinkCounts {
  rows: { period: string | null; dossier: number; summary: string; count: number }[];
}
export interface SumAnswer {
  sum: number;
  count: number;
}
export interface PercentageAnswer {
  charts: { title: string; color: string | null; total: number; part: number; percentage: number }[];
}
export interface FunnelAnswer {
  steps: { id: number; label: string; color: string | null; count: number }[];
}
export interface PeriodCounts {
  rows: { period: string | null; count: number }[];
}
export interface GeomapAnswer {
  center: { lat: number; lng: number };
  zoom: number;
  markers: { id: number; summary: string; lat: number; lng: number }[];
}
export interface ContainerAnswer {
  children: number[];
}
export interface OnlineAnswer {
  online: number;
  offline: number;
}
export interface ActiveAnswer {
  rows: { user_id: number; username: string; total_count: number }[];
}
export interface NewDossierAnswer {
  lastweek: { created_at: number; cd_count: number }[];
  twoweeks: { created_at: number; cd_count: number }[];
  threeweeks: { created_at: number; cd_count: number }[];
}
export interface ListAnswer {
  list: DossierListBody;
}
