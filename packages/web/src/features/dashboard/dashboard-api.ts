import type { Block, BlockPosition, DossierListBody, Pager } from '@dossierbase/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

// Dashboard blocks (/api/mypageblock), their data (/api/mypageblock/{id}/data) and the grid of the
// user's or the default view (/api/mypage/{environment}/position).

export const dashboardKeys = {
  all: ['dashboard'] as const,
  blocks: (environment: number, defaultView: boolean) => ['dashboard', 'blocks', environment, defaultView],
  data: (id: number, dateFormat: string) => ['dashboard', 'data', id, dateFormat],
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

export function useBlockData<T>(id: number, dateFormat: string, enabled = true) {
  return useQuery({
    queryKey: dashboardKeys.data(id, dateFormat),
    queryFn: ({ signal }) =>
      api.get<T>(`/mypageblock/${id}/data`, dateFormat ? { date_format: dateFormat } : {}, signal),
    enabled,
    retry: false,
    // the spec's default refresh rate: thirty minutes
    refetchInterval: 30 * 60 * 1000,
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
