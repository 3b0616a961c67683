import type { FileBody, FileSettings, FileUpload } from '@dossierbase/core';
import { useQueries } from '@tanstack/react-query';
import { api, buildUrl } from '../api/client';

// The server's file calls (POST /api/file with a data URL, GET /api/file/{id}, /download).

/** Spec: a signature is a PNG image downloaded as signature.png. */
export const SIGNATURE_FILE_NAME = 'signature.png';

export const fileQueryKey = (id: number) => ['file', id] as const;

export function fileDownloadUrl(id: number): string {
  return buildUrl(`/file/${id}/download`);
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** A data URL (the signature pad's PNG) as a File with a name, for the upload path. */
export function dataUrlToFile(dataUrl: string, name: string): File {
  const match = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error('Not a data URL');
  const mime = match[1] ?? 'application/octet-stream';
  const bytes = match[2]
    ? Uint8Array.from(atob(match[3]), (c) => c.charCodeAt(0))
    : new TextEncoder().encode(decodeURIComponent(match[3]));
  return new File([bytes], name, { type: mime });
}

/** Uploads one file to the environment; resolves to the stored file. */
export async function uploadToServer(file: File, environment: number): Promise<FileBody> {
  const body: FileUpload = { name: file.name, file: await readAsDataUrl(file), environment };
  return api.post<FileBody>('/file', body);
}

/** Names and types of stored files (for previews and download links). */
export function useFileInfos(ids: readonly number[]) {
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: fileQueryKey(id),
      queryFn: () => api.get<FileBody>(`/file/${id}`),
      staleTime: Number.POSITIVE_INFINITY, // a stored file never changes
    })),
  });
}

/** Image types the browser shows inline (the server serves these inline too). */
export function isPreviewableImage(mime: string | undefined): boolean {
  return !!mime && /^image\/(png|jpeg|gif|webp)$/.test(mime);
}

const ACCEPT: Record<FileSettings['file_types'][number], string> = {
  images: 'image/*',
  audio: 'audio/*',
  video: 'video/*',
  documents: '.pdf,.doc,.docx,.odt,.rtf,.txt,application/pdf,text/plain',
  spreadsheet: '.xls,.xlsx,.ods,.csv,text/csv',
  presentation: '.ppt,.pptx,.odp',
};

/** The file picker's accept filter for the allowed groups (undefined: every type). */
export function acceptOf(settings: Pick<FileSettings, 'file_types'>): string | undefined {
  return settings.file_types.length ? settings.file_types.map((group) => ACCEPT[group]).join(',') : undefined;
}
